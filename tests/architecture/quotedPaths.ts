import ts from 'typescript'

// The paths that the docs and the code's comments quote, and which of them name nothing in
// the repository. quotedPaths.test.ts proves the extraction on tiny examples and then
// applies it to README.md, docs/ and every comment of the tree.

/** The folders a quoted repository path starts with. */
const TOP_FOLDERS = [
  'app',
  'components',
  'lib',
  'db',
  'worker',
  'cli',
  'scripts',
  'bench',
  'tests',
  'contracts',
  'deploy',
  'tools',
  'docs',
  '.ci',
]

/** Files at the repository's root that docs quote by name. */
const ROOT_FILES = [
  'README.md',
  'package.json',
  'package-lock.json',
  'biome.jsonc',
  'tsconfig.json',
  'tsconfig.web.json',
  'vitest.config.ts',
  'playwright.config.ts',
  'next.config.js',
  'drizzle.config.ts',
  'proxy.ts',
  'instrumentation.ts',
  'instrumentation-node.ts',
  'Dockerfile',
]

const PATH_CHAR = String.raw`[\w@()\[\].*/-]`
const QUOTED = new RegExp(
  String.raw`(?<![\w@./$-])(?:@/)?((?:${TOP_FOLDERS.map((f) => f.replace('.', String.raw`\.`)).join('|')})/${PATH_CHAR}*|(?:${ROOT_FILES.map((f) => f.replace(/\./g, String.raw`\.`)).join('|')})(?![\w.-]))`,
  'g',
)

/** A path quoted at one place: the file and line it was quoted at, and the path as a repository path. */
export type QuotedPath = { file: string; line: number; path: string }

/** The text of every comment of a TypeScript or TSX file, with the line each starts on. */
export function commentsOf(source: string, fileName: string): { line: number; text: string }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false)
  const seen = new Set<number>()
  const out: { line: number; text: string }[] = []
  const take = (pos: number) => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(source, pos) ?? []),
      ...(ts.getTrailingCommentRanges(source, pos) ?? []),
    ]) {
      if (seen.has(range.pos)) continue
      seen.add(range.pos)
      out.push({
        line: file.getLineAndCharacterOfPosition(range.pos).line + 1,
        text: source.slice(range.pos, range.end),
      })
    }
  }
  const visit = (node: ts.Node) => {
    take(node.getFullStart())
    take(node.getEnd())
    ts.forEachChild(node, visit)
  }
  visit(file)
  take(file.endOfFileToken.getFullStart())
  return out.sort((a, b) => a.line - b.line)
}

/**
 * The repository paths quoted in `text`: tokens that start with a top-level folder (a file,
 * a folder, a module quoted without its extension or with `@/`) or name a root file
 * (`README.md`), without the trailing
 * punctuation of a sentence and without a `:line` or `#anchor` suffix. Templates
 * (`<name>`, `{id}`, `NNN`, `...`) are not paths and are left out.
 */
export function pathsIn(text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(QUOTED)) {
    let p = match[1] ?? ''
    if (/^[<{]/.test(text.slice((match.index ?? 0) + match[0].length))) continue
    p = p.replace(/[#:].*$/, '').replace(/[.,;]+$/, '')
    while (/[)\]]$/.test(p) && count(p, p.endsWith(')') ? '(' : '[') < count(p, p.at(-1) ?? '')) p = p.slice(0, -1)
    p = p.replace(/[.,;]+$/, '')
    if (p.includes('...') || /NNN|<|\{/.test(p)) continue
    if (/\(\w*$/.test(p)) p = p.replace(/\(\w*$/, '')
    found.push(p)
  }
  return found
}

const count = (text: string, char: string) => text.split(char).length - 1

/** The paths a Markdown file quotes: in its text, and its relative links resolved against its folder. */
export function pathsInMarkdown(text: string, file: string): { line: number; path: string }[] {
  const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : ''
  const out: { line: number; path: string }[] = []
  for (const [i, lineText] of text.split('\n').entries()) {
    for (const p of pathsIn(lineText)) out.push({ line: i + 1, path: p })
    for (const link of lineText.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = (link[1] ?? '').replace(/#.*$/, '')
      if (target === '' || /^[a-z]+:/i.test(target) || target.startsWith('/')) continue
      out.push({ line: i + 1, path: resolveRelative(folder, target) })
    }
  }
  return out
}

function resolveRelative(folder: string, target: string): string {
  const parts = folder === '' ? [] : folder.split('/')
  for (const part of target.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.' && part !== '') parts.push(part)
  }
  return parts.join('/')
}

/**
 * Whether `quoted` names something in `files` (repository paths): a file, a folder, a module
 * without its extension, a glob (`*`, `**`), or a decision by its number.
 */
export function pathExists(quoted: string, files: ReadonlySet<string>, folders: ReadonlySet<string>): boolean {
  const p = quoted.replace(/\/+$/, '')
  if (p.includes('*')) {
    const re = new RegExp(
      `^${p
        .split(/(\*\*\/|\*)/)
        .map((part) =>
          part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')}$`,
    )
    return [...files, ...folders].some((f) => re.test(f))
  }
  if (files.has(p) || folders.has(p)) return true
  if (['.ts', '.tsx', '.js', '.mjs', '/index.ts'].some((ext) => files.has(`${p}${ext}`))) return true
  // a decision quoted by its number: docs/decisions/013
  return /^docs\/decisions\/\d{3}$/.test(p) && [...files].some((f) => f.startsWith(`${p}-`))
}

/** Every folder that holds one of `files`. */
export function foldersOf(files: Iterable<string>): Set<string> {
  const out = new Set<string>()
  for (const f of files) {
    const parts = f.split('/')
    for (let i = 1; i < parts.length; i++) out.add(parts.slice(0, i).join('/'))
  }
  return out
}
