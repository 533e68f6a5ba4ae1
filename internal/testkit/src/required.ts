/**
 * A test dependency (Chromium, PostgreSQL) that is missing fails the run in CI and is
 * skipped loudly elsewhere: never a silent pass.
 */
export function requiredInCi(what: string, why: string): void {
  const message = `${what} is not available (${why}).`
  if (process.env.CI) throw new Error(`${message} CI must provide it; see .ci/run.`)
  console.warn(`\n[SKIPPED] ${message} The tests that need it did not run.\n`)
}
