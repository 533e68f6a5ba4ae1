import ts from 'typescript'

/**
 * Every name the module `file` exports, values and types alike, as its importers see them (a
 * re-export of a workspace package resolves through its sources, the `@service-sdk/source`
 * condition). Sorted.
 */
export function moduleExports(file: string): string[] {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ['@service-sdk/source'],
    target: ts.ScriptTarget.ES2023,
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
    jsx: ts.JsxEmit.ReactJSX,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(file)
  const symbol = source && checker.getSymbolAtLocation(source)
  if (!symbol) throw new Error(`${file} is not a module`)
  return checker
    .getExportsOfModule(symbol)
    .map((s) => s.name)
    .sort()
}
