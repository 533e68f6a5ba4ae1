#!/usr/bin/env node
// The command's entry. It checks the Node version before anything else loads: the rest of the
// command (and the packages it uses) needs Node 22.13 or newer, and on an older Node it would
// fail with a stack while loading. Keep this file free of static imports and of syntax newer than
// Node 14's, so that an old Node can run it far enough to say what it needs.

/** The Node versions the SDK supports: `^22.13.0 || >=24` (every package's `engines`). */
const SUPPORTED = '22 (22.13 or later) or Node 24 and later'

function supported(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  return major >= 24 || (major === 22 && minor >= 13)
}

if (!supported(process.versions.node)) {
  process.stderr.write(
    `Error: service-sdk needs Node ${SUPPORTED}; this is Node ${process.versions.node}.\nHint: install a supported Node and run the command again\n`,
  )
  process.exit(3)
}

// Node 22 warns on first use of an experimental built-in (node:sqlite, which the listener's inbox
// uses); a user of this command can do nothing about that, so those warnings are not printed.
// Every other warning of this thread is printed as Node prints it. The inbox runs SQLite in a
// worker thread, which starts with a copy of this environment and, with NODE_NO_WARNINGS, prints
// no warning of its own.
process.env.NODE_NO_WARNINGS = '1'
process.removeAllListeners('warning')
process.on('warning', (warning) => {
  if (warning.name !== 'ExperimentalWarning') process.stderr.write(`${warning.name}: ${warning.message}\n`)
})

await import('./main.ts')
