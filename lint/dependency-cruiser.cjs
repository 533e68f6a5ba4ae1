// Import cycles (`pnpm cycles`, part of `pnpm lint`). dependency-cruiser follows every import of
// packages/*/src and apps/*/src, type-only imports included (`tsPreCompilationDeps`: a type cycle
// still ties two modules together), workspace packages through their source
// (`@service-sdk/source`), and reports each cycle it finds under the rule `no-circular`.
// lint/cycles.ts compares what it reports with lint/known-cycles.json, the cycles that were there
// when the check was added, in packages whose owners had not yet untangled them: it fails on a
// cycle that is not in that list, and on a listed cycle that is gone (remove it with
// `pnpm cycles --update`, which only ever removes). So the list only shrinks; fix a new cycle by
// moving what both sides need into a module both can import, never by listing it.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module reaches itself through its imports (type-only imports count).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@service-sdk/source', 'import', 'require', 'node', 'types', 'default'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
}
