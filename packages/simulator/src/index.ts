export {
  createSimulatorApp,
  type NodeBindings,
  type SimulatorApp,
  type SimulatorFetch,
  type SimulatorOptions,
} from './app.ts'
export type { MaterialChanges, MaterialSaveForm, MetadataChange, Quirks } from './context.ts'
export type { SimulatorControl } from './control.ts'
export type { FaultAction, FaultHandle, FaultMatch, FaultRule, FaultTarget } from './faults.ts'
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
export { type RunningSimulator, type StartOptions, startSimulator } from './start.ts'
