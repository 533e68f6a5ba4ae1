import type { ChildProcess } from 'node:child_process'

/**
 * The URL of a server process that prints `listening <port>` on its standard output once it
 * accepts connections; rejects if the process exits first.
 */
export function listeningUrl(child: ChildProcess, what = 'server'): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk
      const port = /listening (\d+)/.exec(out)?.[1]
      if (port) resolve(`http://127.0.0.1:${port}`)
    })
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before listening`)))
  })
}
