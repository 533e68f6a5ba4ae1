export { createSimulatorApp, type SimulatorApp, type SimulatorOptions } from './app.ts'
export type { SimulatorCredentials } from './caller.ts'
export type { SimulatorClock } from './clock.ts'
export type {
  IntakeTarget,
  MaterialChanges,
  MaterialSaveForm,
  MetadataChange,
  PendingIntakeItem,
  Quirks,
} from './context.ts'
export type { SimulatorControl } from './control.ts'
export { type SimulatorEnvSource, simulatorEnv } from './env.ts'
export type {
  FaultAction,
  FaultHandle,
  FaultMatch,
  FaultRequest,
  FaultRule,
  Faults,
  FaultTarget,
} from './faults.ts'
export type { NodeBindings, SimulatorFetch } from './fetch-handler.ts'
export {
  createInProcessSimulator,
  DEFAULT_DOMAIN,
  type InProcessOptions,
  type InProcessSimulator,
} from './in-process.ts'
export type { OssCors, OssCorsRule } from './oss/index.ts'
export { MIN_NODE, UnsupportedNodeError } from './runtime.ts'
export {
  defaultSeed,
  loadSeed,
  ROLES,
  type Seed,
  type SeedFolder,
  type SeedTeam,
  type SeedUser,
} from './seed.ts'
export { SimError, type SimErrorKind } from './sim-error.ts'
export {
  type RunningSimulator,
  type SimulatorUrls,
  type StartOptions,
  startSimulator,
} from './start.ts'
/** The simulator's state, as `control.snapshot()` returns it: teams, users, folders, materials, subscriptions. */
export type * as SimulatorState from './state.ts'
export type { DeliveryHandler } from './testing/deliver.ts'
export { type FixtureOptions, type SimulatorFixture, setupSimulator } from './testing/fixture.ts'
export { type SeedBuilder, seedBuilder, type TeamInput, type UserInput } from './testing/seed-builder.ts'
export type { EventTimeFormat } from './webhooks/delivery-faults.ts'
export type {
  Delivery,
  DeliveryFaults,
  Enqueued,
  SenderUpdate,
  WebhookSender,
  WebhookSenderOptions,
} from './webhooks/sender.ts'
export { FOLDERS, MEMBERS, SPACES } from './world.ts'
