import ts from 'typescript'

/** Units a doc comment writes a default in, as the multiplier to the code's unit (ms or bytes). */
const UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  second: 1_000,
  seconds: 1_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  day: 86_400_000,
  days: 86_400_000,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
}

const DEFAULT_TEXT =
  /\bDefault:?\s+([\d][\d,_]*(?:\.\d+)?)(?:\s*(ms|s|seconds?|min|minutes?|h|hours?|days?|KiB|MiB|GiB)\b)?/

/** The number a "Default 8,000 ms" / "Default 30 s" / `@default 100` text gives, in the code's unit. */
export function parseDocDefault(text: string): number | undefined {
  const found = DEFAULT_TEXT.exec(text)
  if (!found) return undefined
  const value = Number((found[1] ?? '').replaceAll(/[,_]/g, ''))
  return value * (found[2] ? (UNITS[found[2]] ?? Number.NaN) : 1)
}

const programs = new Map<string, { program: ts.Program; checker: ts.TypeChecker }>()

function programOf(file: string) {
  let found = programs.get(file)
  if (!found) {
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      customConditions: ['@service-sdk/source'],
      target: ts.ScriptTarget.ES2023,
      strict: true,
      exactOptionalPropertyTypes: true,
      allowImportingTsExtensions: true,
      jsx: ts.JsxEmit.ReactJSX,
      noEmit: true,
      skipLibCheck: true,
    })
    found = { program, checker: program.getTypeChecker() }
    programs.set(file, found)
  }
  return found
}

/**
 * The default each property of the exported interface or type `name` of `file` states in its
 * doc comment ("Default 8,000 ms", `@default 100`), as its editor hover shows it: inherited docs
 * (`extends`, `Pick`) included. `path` descends into a property's type first (`['retry']`).
 * Properties without a stated numeric default are left out.
 */
export function documentedDefaults(
  file: string,
  name: string,
  path: readonly string[] = [],
): Record<string, number> {
  const { program, checker } = programOf(file)
  const source = program.getSourceFile(file)
  if (!source) throw new Error(`${file} is not in the program`)
  const symbol = checker
    .getExportsOfModule(checker.getSymbolAtLocation(source) as ts.Symbol)
    .find((s) => s.name === name)
  if (!symbol) throw new Error(`${file} exports no ${name}`)
  let type = checker.getDeclaredTypeOfSymbol(symbol)
  for (const step of path) {
    const property = type.getProperty(step)
    if (!property) throw new Error(`${name} has no property ${step}`)
    type = checker.getNonNullableType(checker.getTypeOfSymbol(property))
    // `RetryOptions | false`: the object member.
    if (type.isUnion())
      type =
        type.types.find((t) => (t.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) !== 0) ?? type
  }
  const defaults: Record<string, number> = {}
  for (const property of type.getProperties()) {
    const doc = ts.displayPartsToString(property.getDocumentationComment(checker))
    const tag = property.getJsDocTags(checker).find((t) => t.name === 'default')
    const value = parseDocDefault(doc) ?? parseDocDefault(`Default ${ts.displayPartsToString(tag?.text)}`)
    if (value !== undefined) defaults[property.name] = value
  }
  return defaults
}
