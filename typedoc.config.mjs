// The API reference of every published package, from the code's own doc comments
// (`pnpm run docs`, run by the test command): a warning, an undocumented export or a broken link
// fails the build.
import { readFileSync } from 'node:fs'
import { OptionDefaults } from 'typedoc'

// Source links ("Defined in ...") point at the repository each package.json names, at the commit
// being documented. With a template given, TypeDoc asks git only for that commit and the tracked
// files, never for a remote: a clone without `origin` or a fork builds the same links (outside a
// git checkout there are none, and no warning).
const repository = JSON.parse(readFileSync(new URL('packages/core/package.json', import.meta.url), 'utf8'))
  .repository.url.replace(/^git\+/, '')
  .replace(/\.git$/, '')
const sources = { sourceLinkTemplate: `${repository}/blob/{gitRevision}/{path}#L{line}` }

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'service-sdk',
  entryPointStrategy: 'packages',
  entryPoints: [
    'packages/core',
    'packages/team',
    'packages/open',
    'packages/selector',
    'packages/webhooks',
    'packages/simulator',
    'packages/react',
  ],
  // Each package's typedoc.json lists its entry points (one per subpath export) and the few names
  // a public type is computed from but users never name (`intentionallyNotExported`).
  packageOptions: {
    ...sources,
    readme: 'README.md',
    // openapi-typescript writes `@description` and `@constant` in the generated types.
    blockTags: [...OptionDefaults.blockTags, '@description', '@constant'],
  },
  ...sources,
  out: 'docs/site/api',
  highlightLanguages: [...OptionDefaults.highlightLanguages, 'sql'],
  readme: 'none',
  // `pnpm typecheck` already checks the code; the reference only reads it.
  skipErrorChecking: true,
  excludePrivate: true,
  excludeInternal: true,
  treatWarningsAsErrors: true,
  treatValidationWarningsAsErrors: true,
  validation: { notExported: true, invalidLink: true, rewrittenLink: true, notDocumented: true },
  // Every export and every member users call must be documented. Properties are left out: the
  // zod schemas' inferred types expose each enum literal as a property, which has nothing to say.
  requiredToBeDocumented: [
    'Enum',
    'EnumMember',
    'Variable',
    'Function',
    'Class',
    'Interface',
    'Method',
    'Accessor',
    'TypeAlias',
  ],
}
