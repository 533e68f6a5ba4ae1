// `pnpm api:check` (in the test command) / `pnpm api:update`: each published package's public
// surface, one report per entry of its exports map (`packages/<pkg>/etc/<entry>.api.md`), made by
// API Extractor from the built type declarations. `api:check` fails when a report differs from
// what is checked in, so that a change to a package's surface is a change to a file a reviewer
// reads. Run `pnpm build` first.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor'
import { publishedPackages, root } from './lib/workspace.ts'

const update = process.argv.includes('--update')

interface Entry {
  /** The report's name: `index` for `.`, else the subpath (`proxy`, `stores/postgres`...). */
  name: string
  /** The ESM declaration file of the entry. */
  types: string
}

/** Every entry of a package's exports map that has ESM types. */
function entriesOf(dir: string): Entry[] {
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'))
  const exports = (manifest.exports ?? {}) as Record<string, unknown>
  const entries: Entry[] = []
  for (const [path, target] of Object.entries(exports)) {
    const conditions = target as { import?: { types?: string }; types?: string }
    const types = conditions?.import?.types ?? conditions?.types
    if (typeof types !== 'string' || !types.endsWith('.d.ts')) continue
    entries.push({ name: path === '.' ? 'index' : path.replace(/^\.\//, '').replace(/\//g, '-'), types })
  }
  return entries
}

let changed = 0
for (const pkg of publishedPackages()) {
  const folder = join(root, pkg.dir)
  const entries = entriesOf(pkg.dir)
  if (entries.length > 0) mkdirSync(join(folder, 'etc'), { recursive: true })
  for (const entry of entries) {
    const types = join(folder, entry.types)
    if (!existsSync(types)) throw new Error(`${pkg.name}: ${entry.types} is not built; run pnpm build first`)
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: folder,
        newlineKind: 'lf',
        mainEntryPointFilePath: types,
        apiReport: {
          enabled: true,
          reportFolder: join(folder, 'etc'),
          reportTempFolder: join(folder, 'node_modules', '.cache', 'api-report'),
          reportFileName: `${entry.name}.api.md`,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        compiler: {
          // The built declarations only (the package's own tsconfig would bring its sources in).
          overrideTsconfig: {
            include: [join(folder, 'dist')],
            compilerOptions: {
              lib: ['es2023', 'dom'],
              types: ['node'],
              skipLibCheck: true,
              module: 'esnext',
              moduleResolution: 'bundler',
            },
          },
        },
        messages: {
          extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
        },
      },
      configObjectFullPath: join(folder, 'api-extractor.json'),
      packageJsonFullPath: join(folder, 'package.json'),
    })
    const result = Extractor.invoke(config, {
      localBuild: update,
      // Only the compiler's errors are shown (the notices and report warnings are this script's to say).
      messageCallback: (message) => {
        if (message.logLevel !== 'error') message.handled = true
      },
    })
    if (!result.succeeded || result.apiReportChanged) {
      changed++
      console.error(`${pkg.name} (${entry.name}): the public surface differs from etc/${entry.name}.api.md`)
    }
  }
}
if (changed > 0 && !update) {
  console.error('Run `pnpm api:update` and review the changes to the reports with the change itself.')
  process.exit(1)
}
