export {
  createSimulatorApp,
  type NodeBindings,
  type SimulatorApp,
  type SimulatorFetch,
  type SimulatorOptions,
} from './app.ts'
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
export { type RunningSimulator, type StartOptions, startSimulator } from './start.ts'
/** The simulator's state, as `control.snapshot()` returns it: teams, users, folders, materials, subscriptions. */
export type * as SimulatorState from './state.ts'
export type { DeliveryHandler } from './testing/deliver.ts'
export { type FixtureOptions, type SimulatorFixture, setupSimulator } from './testing/fixture.ts'
export { type SeedBuilder, seedBuilder, type TeamInput, type UserInput } from './testing/seed-builder.ts'
export type { EventTimeFormat } from './webhooks/delivery-faults.ts'
export type { Delivery, DeliveryFaults, WebhookSender, WebhookSenderOptions } from './webhooks/sender.ts'
export { FOLDERS, MEMBERS, SPACES } from './world.ts'
