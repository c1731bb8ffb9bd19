import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkFileSize, checkImports, isImportChecked, isSizeChecked, MAX_LINES, parseImports } from './rules'

// The repository against the rules of docs/architecture.md (tests/architecture/rules.ts):
// which way imports run, and no production file over MAX_LINES lines. Each failure lists
// every offending import or file, so one run shows the whole debt.

const root = path.resolve(import.meta.dirname, '../..')
const SKIPPED_DIRS = new Set(['node_modules', '.next', '.data', '.git', 'cdk.out', 'test-results', 'playwright-report'])

/** Every .ts/.tsx file of the repository, as a repository path with forward slashes. */
function sourceFiles(dir = ''): string[] {
  const out: string[] = []
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue
    const repoPath = dir ? `${dir}/${entry.name}` : entry.name
    if (entry.isDirectory()) out.push(...sourceFiles(repoPath))
    else if (/\.tsx?$/.test(entry.name)) out.push(repoPath)
  }
  return out
}

const files = sourceFiles()
const read = (repoPath: string) => readFileSync(path.join(root, repoPath), 'utf8')

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
      .flatMap((file) => checkImports(file, parseImports(read(file), file)))
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
})
