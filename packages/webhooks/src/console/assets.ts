import { readFile } from 'node:fs/promises'

/**
 * The page's script and style, written into the built files by the build (tsdown.config.ts
 * `define`: `browser.ts` with its types stripped, and `console.css`); undeclared when run from
 * source, where they are read from the files beside this one on first use. Served as files of
 * their own, so the page runs under a policy with no inline script or style.
 */
declare const INBOX_CONSOLE_SCRIPT: string | undefined
declare const INBOX_CONSOLE_STYLE: string | undefined

export interface Asset {
  text: string
  type: string
}

let fromSource: Promise<{ script: string; style: string }> | undefined

async function sources(): Promise<{ script: string; style: string }> {
  fromSource ??= (async () => {
    const { stripTypeScriptTypes } = (await import('node:module')) as unknown as {
      stripTypeScriptTypes(code: string): string
    }
    const [script, style] = await Promise.all([
      readFile(new URL('./browser.ts', import.meta.url), 'utf8'),
      readFile(new URL('./console.css', import.meta.url), 'utf8'),
    ])
    return { script: stripTypeScriptTypes(script), style }
  })()
  return fromSource
}

/** `console.js` or `console.css`; undefined for any other name. */
export async function consoleAsset(name: string): Promise<Asset | undefined> {
  if (name !== 'console.js' && name !== 'console.css') return undefined
  const built =
    typeof INBOX_CONSOLE_SCRIPT !== 'undefined' && typeof INBOX_CONSOLE_STYLE !== 'undefined'
      ? { script: INBOX_CONSOLE_SCRIPT, style: INBOX_CONSOLE_STYLE }
      : await sources()
  return name === 'console.js'
    ? { text: built.script, type: 'text/javascript' }
    : { text: built.style, type: 'text/css' }
}
