// Packing (pnpm pack / pnpm publish): the published manifest must not point at files the
// tarball lacks. In the workspace every export has an `@service-sdk/source` condition that
// resolves to the TypeScript sources (so tests and type checks need no build); the tarball
// ships only `dist`, so that condition is removed from the packed package.json. The manifest
// on disk is untouched.
const SOURCE = '@service-sdk/source'

function withoutSource(entry) {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry
  const out = {}
  for (const [key, value] of Object.entries(entry)) {
    if (key !== SOURCE) out[key] = withoutSource(value)
  }
  return out
}

module.exports = {
  hooks: {
    beforePacking(pkg) {
      if (pkg.exports) pkg.exports = withoutSource(pkg.exports)
      return pkg
    },
  },
}
