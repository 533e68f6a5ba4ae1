/**
 * The upload engine, imported on the first upload (a separate chunk in browser bundles). The
 * handles (`upload()`, `uploadMany()`), option checks and progress stay in the main bundle, so
 * bad input is still refused synchronously.
 */
let engine: Promise<typeof import('../engine/engine.ts')> | undefined
export function loadEngine(): Promise<typeof import('../engine/engine.ts')> {
  engine ??= import('../engine/engine.ts')
  return engine
}
