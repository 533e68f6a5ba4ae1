export type { SimulatorControl } from './control/control.ts'
export type {
  FaultAction,
  FaultHandle,
  FaultMatch,
  FaultRequest,
  FaultRule,
  Faults,
  FaultTarget,
} from './control/faults.ts'
export { createSimulatorApp, type SimulatorApp, type SimulatorOptions } from './host/app.ts'
export type { SimulatorCredentials } from './host/caller.ts'
export { type SimulatorEnvSource, simulatorEnv } from './host/env.ts'
export {
  createInProcessSimulator,
  DEFAULT_DOMAIN,
  type InProcessOptions,
  type InProcessSimulator,
} from './host/in-process.ts'
export { MIN_NODE, UnsupportedNodeError } from './host/runtime.ts'
export {
  type RunningSimulator,
  type SimulatorUrls,
  type StartOptions,
  startSimulator,
} from './host/start.ts'
export type { NodeBindings, SimulatorFetch } from './http/fetch-handler.ts'
export { SimError, type SimErrorKind } from './http/sim-error.ts'
export type { SimulatorClock } from './model/clock.ts'
export type {
  IntakeTarget,
  MaterialChanges,
  MaterialSaveForm,
  MetadataChange,
  PendingIntakeItem,
  Quirks,
} from './model/context.ts'
export {
  defaultSeed,
  loadSeed,
  ROLES,
  type Seed,
  type SeedFolder,
  type SeedTeam,
  type SeedUser,
} from './model/seed.ts'
/** The simulator's state, as `control.snapshot()` returns it: teams, users, folders, materials, subscriptions. */
export type * as SimulatorState from './model/state.ts'
export { FOLDERS, MEMBERS, SPACES } from './model/world.ts'
export type { OssCors, OssCorsRule } from './oss/index.ts'
export type { DeliveryHandler } from './testing/deliver.ts'
export { type FixtureOptions, type SimulatorFixture, setupSimulator } from './testing/fixture.ts'
export { type SeedBuilder, seedBuilder, type TeamInput, type UserInput } from './testing/seed-builder.ts'
export type { EventTimeFormat } from './webhooks/sender/delivery-faults.ts'
export type {
  Delivery,
  DeliveryFaults,
  Enqueued,
  SenderUpdate,
  WebhookSender,
  WebhookSenderOptions,
} from './webhooks/sender/sender.ts'
