import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { commentsOf, foldersOf, pathExists, pathsIn, pathsInMarkdown, type QuotedPath } from './quotedPaths'

// Docs that cannot rot: every repository path quoted in README.md, docs/ (superseded
// decisions keep their text as it was, so they are left out) or a code comment names a
// file or folder that exists.

const root = path.resolve(import.meta.dirname, '../..')
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f, i, all) => f !== '' && all.indexOf(f) === i)
const files = new Set(tracked)
const folders = foldersOf(files)
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

const isSuperseded = (text: string) => /^Status:\s*superseded/im.test(text)

/** Every quoted path of the docs and the comments, where it is quoted. */
function quotedPaths(): QuotedPath[] {
  const out: QuotedPath[] = []
  for (const file of tracked) {
    if (!files.has(file)) continue
    if (/(^|\/)README\.md$/.test(file) || (file.startsWith('docs/') && file.endsWith('.md'))) {
      const text = read(file)
      if (file.startsWith('docs/decisions/') && isSuperseded(text)) continue
      for (const q of pathsInMarkdown(text, file)) out.push({ file, ...q })
    } else if (/\.tsx?$/.test(file) && !file.endsWith('.generated.ts')) {
      for (const c of commentsOf(read(file), file))
        for (const p of pathsIn(c.text)) out.push({ file, line: c.line, path: p })
    }
  }
  return out
}

describe('quoted paths: the extraction', () => {
  it('finds folder paths, @/ imports and root files, without punctuation, suffixes or templates', () => {
    expect(pathsIn('see `lib/mint/createMintOrder.ts`, then @/worker/mint/sendMintOrders.')).toEqual([
      'lib/mint/createMintOrder.ts',
      'worker/mint/sendMintOrders',
    ])
    expect(pathsIn('the README.md and docs/api.md#errors, worker/runtime/main.ts:12')).toEqual([
      'README.md',
      'docs/api.md',
      'worker/runtime/main.ts',
    ])
    expect(pathsIn('db/functions/<name>.sql, docs/decisions/NNN-title.md and lib/.../x.ts')).toEqual([])
    expect(pathsIn('https://example.com/lib/x.ts and /api/gold/mint and mylib/x.ts')).toEqual([])
  })

  it('resolves a Markdown link against the file that holds it', () => {
    expect(
      pathsInMarkdown('[a](../api.md) [b](013-check.md#x) [c](https://x.test/y)', 'docs/decisions/001.md'),
    ).toEqual([
      { line: 1, path: 'docs/api.md' },
      { line: 1, path: 'docs/decisions/013-check.md' },
    ])
  })

  it('reads every comment of a file, line and block', () => {
    const source = '// one lib/a.ts\nconst x = 1 /* two lib/b.ts */\n/** three\n * lib/c.ts */\nexport { x }\n'
    expect(commentsOf(source, 'x.ts').flatMap((c) => pathsIn(c.text))).toEqual(['lib/a.ts', 'lib/b.ts', 'lib/c.ts'])
  })

  it('a planted dead path is reported; files, folders, modules without extension and globs are found', () => {
    const known = new Set(['lib/mint/a.ts', 'db/functions/f.sql', 'docs/api.md'])
    const dirs = foldersOf(known)
    expect(pathExists('lib/mint/a.ts', known, dirs)).toBe(true)
    expect(pathExists('lib/mint/a', known, dirs)).toBe(true)
    expect(pathExists('lib/mint/', known, dirs)).toBe(true)
    expect(pathExists('db/functions/*.sql', known, dirs)).toBe(true)
    expect(pathExists('worker/mint/signMintTx.ts', known, dirs)).toBe(false)
    expect(pathExists('db/functions/*.json', known, dirs)).toBe(false)
    expect(pathExists('lib/**/*.ts', known, dirs)).toBe(true)
    expect(pathExists('docs/decisions/013', new Set(['docs/decisions/013-check.md']), dirs)).toBe(true)
    expect(pathExists('docs/decisions/014', new Set(['docs/decisions/013-check.md']), dirs)).toBe(false)
  })
})

describe('quoted paths: the repository', () => {
  it('every path quoted in README.md, docs/ and the comments exists', () => {
    const all = quotedPaths()
    expect(all.length).toBeGreaterThan(100)
    const dead = all.filter((q) => !pathExists(q.path, files, folders)).map((q) => `${q.file}:${q.line}: ${q.path}`)
    expect(dead, `paths quoted that name nothing (fix the path, or say it another way):\n${dead.join('\n')}`).toEqual(
      [],
    )
  })
})

describe('comments fit the line width', () => {
  it('no comment line is over 120 columns (the formatter wraps code, not comments)', () => {
    const long: string[] = []
    for (const file of tracked) {
      if (!files.has(file) || !/\.tsx?$/.test(file) || file.endsWith('.generated.ts')) continue
      const source = read(file)
      const lines = source.split('\n')
      for (const c of commentsOf(source, file)) {
        for (const [i, line] of c.text.split('\n').entries()) {
          const column = i === 0 ? (lines[c.line - 1] ?? '').length : line.length
          if (column > 120) long.push(`${file}:${c.line + i}: ${column} columns`)
        }
      }
    }
    expect(long, `comment lines over 120 columns (rewrap them):\n${long.join('\n')}`).toEqual([])
  })
})
