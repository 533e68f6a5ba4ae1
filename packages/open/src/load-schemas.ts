let schemas: Promise<typeof import('./schemas.ts')> | undefined

/** The client's schemas, imported once, on the first call (a chunk of its own in browser bundles). */
export function loadSchemas(): Promise<typeof import('./schemas.ts')> {
  schemas ??= import('./schemas.ts')
  return schemas
}
