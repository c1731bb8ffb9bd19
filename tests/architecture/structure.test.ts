import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { WEB_HEALTHCHECK_ENTRY, WORKER_ENTRIES } from '../../scripts/build-release'
import {
  checkFileSize,
  checkImports,
  checkProcess,
  type EntrySet,
  entrySetsOf,
  type ImportRef,
  isImportChecked,
  isProcessChecked,
  isSizeChecked,
  MAX_LINES,
  PROCESS_EXCEPTIONS,
  parseImports,
  reachability,
} from './rules'

// The repository against the rules of docs/architecture.md (tests/architecture/rules.ts):
// which way imports run, no production file over MAX_LINES lines, and each production
// file in the folder of the processes that reach it. Each failure lists every offending
// import or file, so one run shows the whole debt.

const root = path.resolve(import.meta.dirname, '../..')
const SKIPPED_DIRS = new Set([
  'node_modules',
  '.next',
  '.data',
  '.git',
  'dist',
  'cdk.out',
  'test-results',
  'playwright-report',
])

/** Every file of the repository, as a repository path with forward slashes. */
function repoFiles(dir = ''): string[] {
  const out: string[] = []
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue
    const repoPath = dir ? `${dir}/${entry.name}` : entry.name
    if (entry.isDirectory()) out.push(...repoFiles(repoPath))
    else out.push(repoPath)
  }
  return out
}

const allFiles = repoFiles()
/** Every .ts/.tsx file of the repository. */
const files = allFiles.filter((f) => /\.tsx?$/.test(f))
const read = (repoPath: string) => readFileSync(path.join(root, repoPath), 'utf8')
const parsed = new Map<string, ImportRef[]>()
/** A file's imports, parsed once for all the rules. */
const importsOf = (repoPath: string): ImportRef[] => {
  let refs = parsed.get(repoPath)
  if (!refs) {
    refs = parseImports(read(repoPath), repoPath)
    parsed.set(repoPath, refs)
  }
  return refs
}

describe('the repository follows docs/architecture.md', () => {
  it('finds the production code it checks', () => {
    const checked = files.filter(isImportChecked)
    for (const folder of ['app/', 'components/', 'lib/', 'db/', 'worker/']) {
      expect(
        checked.some((f) => f.startsWith(folder)),
        `no file checked under ${folder}`,
      ).toBe(true)
    }
  })

  it('every import runs the allowed way', () => {
    const violations = files
      .filter(isImportChecked)
      .flatMap((file) => checkImports(file, importsOf(file)))
      .map((v) => `${v.file}:${v.line} imports ${v.specifier} (${v.from} -> ${v.to}): ${v.rule}`)
    expect(violations, `imports against docs/architecture.md:\n${violations.join('\n')}`).toEqual([])
  })

  it(`no production file is over ${MAX_LINES} lines`, () => {
    const violations = files
      .filter(isSizeChecked)
      .flatMap((file) => checkFileSize(file, read(file)) ?? [])
      .map((v) => `${v.file}: ${v.lines} lines`)
    expect(
      violations,
      `files over ${MAX_LINES} lines (split them, one exported operation per file):\n${violations.join('\n')}`,
    ).toEqual([])
  })

  describe('a file lives with the processes that reach it', () => {
    const reached = reachability(allFiles, importsOf)
    const none: ReadonlySet<EntrySet> = new Set()

    it("starts from the entry points of every process, the release build's bundles among them", () => {
      for (const set of ['web', 'worker', 'cli', 'tools'] as const) {
        expect(
          allFiles.some((f) => entrySetsOf(f).includes(set)),
          `no entry point of ${set}`,
        ).toBe(true)
      }
      // what scripts/build-release.ts bundles for the images is the worker binary and the cli
      for (const entry of [...Object.values(WORKER_ENTRIES), WEB_HEALTHCHECK_ENTRY]) {
        expect(entrySetsOf(entry), `${entry}, bundled by scripts/build-release.ts`).toEqual([
          entry === WORKER_ENTRIES.worker ? 'worker' : 'cli',
        ])
      }
    })

    it('each production file is reached, and from the processes its folder says', () => {
      const violations = files
        .filter(isProcessChecked)
        .flatMap((file) => checkProcess(file, reached.get(file) ?? none) ?? [])
        .map((v) => `${v.file} (reached from ${v.reachedBy.join(', ') || 'nothing'}): ${v.rule}`)
      expect(violations, `files in the wrong process's folder:\n${violations.join('\n')}`).toEqual([])
    })

    it('every exception names a file that exists and still needs it', () => {
      for (const file of Object.keys(PROCESS_EXCEPTIONS)) {
        expect(allFiles, `PROCESS_EXCEPTIONS names ${file}`).toContain(file)
        expect(
          checkProcess(file, reached.get(file) ?? none, {}),
          `${file} is an exception but breaks no rule any more: drop it from PROCESS_EXCEPTIONS`,
        ).not.toBeNull()
      }
    })
  })
})
