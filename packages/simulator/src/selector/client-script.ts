import { readFile } from 'node:fs/promises'

/** Read or bundled once per process. */
let script: Promise<string> | undefined

/**
 * The script the selector page loads, bundled from ./browser/ (a module of its own, type-checked
 * and linted with the rest; see build/selector-client.ts). The published build ships it as
 * dist/selector-client.js, next to the module that reads it. Run from the TypeScript source, as
 * the workspace's tests do without building, the simulator bundles it on first use (with the
 * workspace's rolldown), so the page is always the source's.
 */
export function selectorClientScript(): Promise<string> {
  script ??= (import.meta.url.endsWith('.ts') ? bundleFromSource() : readBuilt()).catch((error: unknown) => {
    script = undefined
    throw error
  })
  return script
}

function readBuilt(): Promise<string> {
  return readFile(new URL('./selector-client.js', import.meta.url), 'utf8')
}

async function bundleFromSource(): Promise<string> {
  // A computed address: the bundler of the published build must not follow it (the builder is
  // not part of the package, and rolldown is a development dependency).
  const builder = new URL('../../build/selector-client.ts', import.meta.url).href
  const { bundleSelectorClient } = (await import(/* @vite-ignore */ builder)) as {
    bundleSelectorClient(): Promise<string>
  }
  return bundleSelectorClient()
}
