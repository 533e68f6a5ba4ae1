export {
  createSimulatorApp,
  type NodeBindings,
  type SimulatorApp,
  type SimulatorFetch,
  type SimulatorOptions,
} from './app.ts'
export type { IntakeTarget, MaterialChanges, MetadataChange, PendingIntakeItem, Quirks } from './context.ts'
export type { SimulatorControl } from './control.ts'
export type { FaultAction, FaultHandle, FaultMatch, FaultRule, FaultTarget } from './faults.ts'
export {
  defaultSeed,
  loadSeed,
  ROLES,
  type Seed,
  type SeedFolder,
  type SeedTeam,
  type SeedUser,
} from './seed.ts'
export { type RunningSimulator, type StartOptions, startSimulator } from './start.ts'
