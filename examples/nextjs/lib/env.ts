/** A required environment variable, read when first needed (not at build time). */
export function env(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set (for the simulator: pnpm exec service-sdk sim --env)`)
  return value
}
