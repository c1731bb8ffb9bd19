import path from 'node:path'
import ts from 'typescript'

// The structure rules of docs/architecture.md ("Folders" and "Which way imports run"),
// as data and small pure functions, so that structure.test.ts applies them to the real
// tree and rules.test.ts proves each one on a tiny in-memory example.

/** A top-level home of code. The web's root files (proxy.ts, instrumentation.ts) belong to `app`. */
export type Folder =
  | 'app'
  | 'components'
  | 'lib'
  | 'db'
  | 'worker'
  | 'cli'
  | 'scripts'
  | 'bench'
  | 'tests'
  | 'contracts'
  | 'deploy'

/** Production code: what ships in the web and worker images and runs there. */
export const PRODUCTION_FOLDERS: readonly Folder[] = ['app', 'components', 'lib', 'db', 'worker', 'cli']

/** The folders whose imports are checked: production code and the dev tools. */
export const IMPORT_CHECKED_FOLDERS: readonly Folder[] = [...PRODUCTION_FOLDERS, 'scripts', 'bench']

/** The folders whose files are held to MAX_LINES. */
export const SIZE_CHECKED_FOLDERS: readonly Folder[] = [...PRODUCTION_FOLDERS, 'deploy', 'scripts']

/**
 * The web's files at the repository root (Next.js wants proxy.ts and instrumentation.ts
 * there): they run in the web process,
 * so for the import rules they are `app`. Other root files are tool configuration
 * (vitest, playwright, drizzle-kit, next.config) and are not checked.
 */
export const WEB_ROOT_FILES: readonly string[] = ['proxy.ts', 'instrumentation.ts', 'instrumentation-node.ts']

/** Longest production file, in lines. */
export const MAX_LINES = 400

/**
 * Which folders each folder may import (itself included); anything else is a violation.
 * The production rules, as docs/architecture.md writes them:
 * - app -> components, lib, db; never worker (the web never signs or sends a transaction).
 * - components -> lib (types, pure rules, formatting); never db (data reaches them
 *   through server components and route handlers), never app or worker.
 * - worker -> lib, db; never app or components.
 * - lib -> db, contracts (the token's compiled artifact); never worker, app, components,
 *   cli, scripts or tests.
 * - db -> nothing of ours.
 * - cli (the tools shipped in the images) -> lib, db.
 * - nothing imports app; production code never imports scripts/, bench/ or tests/.
 * The dev tools (scripts/, bench/) may use production code, each other and tests/ (the
 * chaos runner), never app or components. contracts/ and deploy/ may use lib (an error
 * class, the queue metrics' names). tests/ may import anything.
 */
export const ALLOWED_IMPORTS: Readonly<Record<Folder, readonly Folder[]>> = {
  app: ['app', 'components', 'lib', 'db'],
  components: ['components', 'lib'],
  lib: ['lib', 'db', 'contracts'],
  db: ['db'],
  worker: ['worker', 'lib', 'db'],
  cli: ['cli', 'lib', 'db'],
  scripts: ['scripts', 'bench', 'lib', 'db', 'worker', 'cli', 'contracts', 'tests'],
  bench: ['bench', 'scripts', 'lib', 'db', 'worker', 'cli', 'contracts', 'tests'],
  contracts: ['contracts', 'lib'],
  deploy: ['deploy', 'lib'],
  tests: ['tests', 'app', 'components', 'lib', 'db', 'worker', 'cli', 'scripts', 'bench', 'contracts', 'deploy'],
}

/** The rule an import breaks, in the words of docs/architecture.md. */
export function ruleFor(from: Folder, to: Folder): string {
  if (PRODUCTION_FOLDERS.includes(from) && (to === 'scripts' || to === 'bench' || to === 'tests')) {
    return `production code never imports ${to}/`
  }
  if (to === 'app') return 'nothing imports app'
  if (from === 'app' && to === 'worker') return 'app never imports worker: the web never signs or sends a transaction'
  if (from === 'components' && to === 'db') return 'components never import db'
  if (from === 'db') return 'db imports nothing of ours'
  return `${from} may import only ${ALLOWED_IMPORTS[from].join(', ')}`
}

/**
 * Where a repository path lives (a file, or a module as an import names it, without its extension):
 * its top-level folder, `app` for the web's root files, or null for anything else (tool
 * configuration at the root, a path outside the repository).
 */
export function folderOf(repoPath: string): Folder | null {
  const posix = toPosix(repoPath)
  if (posix.startsWith('../') || posix === '..') return null
  const [top, ...rest] = posix.split('/')
  if (rest.length === 0 && top !== undefined && Object.hasOwn(ALLOWED_IMPORTS, top)) return top as Folder // `@/db`
  if (rest.length === 0) {
    const stem = posix.replace(/\.(tsx?|jsx?|mjs|cjs)$/, '')
    return WEB_ROOT_FILES.some((f) => f.replace(/\.ts$/, '') === stem) ? 'app' : null
  }
  return top !== undefined && Object.hasOwn(ALLOWED_IMPORTS, top) ? (top as Folder) : null
}

/** One import found in a file: its specifier and its 1-based line. */
export type ImportRef = { specifier: string; line: number }

/**
 * Every module a file names: `import ... from`, `import type`, `export ... from`,
 * `import x = require()`, `require()`, dynamic `import()` and `import('x').T` types.
 * Read with the TypeScript parser, so comments and strings that only look like imports
 * are not counted.
 */
export function parseImports(source: string, fileName = 'file.ts'): ImportRef[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind)
  const found: ImportRef[] = []
  const add = (node: ts.Node, literal: ts.Node | undefined) => {
    if (literal && ts.isStringLiteralLike(literal)) {
      found.push({ specifier: literal.text, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1 })
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, node.moduleSpecifier)
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression)
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression
      const isDynamicImport = callee.kind === ts.SyntaxKind.ImportKeyword
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require'
      if (isDynamicImport || isRequire) add(node, node.arguments[0])
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

/**
 * The repository path an import points to, or null for a package: `@/x/y` is `x/y` (the
 * tsconfig path alias), `./y` and `../y` are taken from the importing file's folder.
 */
export function resolveSpecifier(fromRepoPath: string, specifier: string): string | null {
  if (specifier.startsWith('@/')) return path.posix.normalize(specifier.slice(2))
  if (specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../')) {
    return path.posix.normalize(path.posix.join(path.posix.dirname(toPosix(fromRepoPath)), specifier))
  }
  return null
}

export type ImportViolation = { file: string; line: number; specifier: string; from: Folder; to: Folder; rule: string }

/** The imports of one file that break ALLOWED_IMPORTS (packages are never a violation). */
export function checkImports(fromRepoPath: string, imports: readonly ImportRef[]): ImportViolation[] {
  const from = folderOf(fromRepoPath)
  if (from === null) return []
  const out: ImportViolation[] = []
  for (const ref of imports) {
    const target = resolveSpecifier(fromRepoPath, ref.specifier)
    const to = target === null ? null : folderOf(target)
    if (to === null || ALLOWED_IMPORTS[from].includes(to)) continue
    out.push({
      file: toPosix(fromRepoPath),
      line: ref.line,
      specifier: ref.specifier,
      from,
      to,
      rule: ruleFor(from, to),
    })
  }
  return out
}

/** Whether a file's imports are checked: code (not a test) in IMPORT_CHECKED_FOLDERS. */
export function isImportChecked(repoPath: string): boolean {
  const folder = folderOf(repoPath)
  return folder !== null && IMPORT_CHECKED_FOLDERS.includes(folder) && isCode(repoPath)
}

/** Files exempt from MAX_LINES: generated ones. */
export function isGenerated(repoPath: string): boolean {
  const posix = toPosix(repoPath)
  return posix.endsWith('.generated.ts') || posix.startsWith('db/migrations/')
}

/** Whether a file is production or tool code held to MAX_LINES (tests are not). */
export function isSizeChecked(repoPath: string): boolean {
  const folder = folderOf(repoPath)
  return folder !== null && SIZE_CHECKED_FOLDERS.includes(folder) && isCode(repoPath) && !isGenerated(repoPath)
}

export type SizeViolation = { file: string; lines: number }

/** A file over MAX_LINES, or null. Lines are counted as an editor shows them. */
export function checkFileSize(repoPath: string, source: string): SizeViolation | null {
  if (!isSizeChecked(repoPath)) return null
  const lines = source.endsWith('\n') ? source.split('\n').length - 1 : source.split('\n').length
  return lines > MAX_LINES ? { file: repoPath, lines } : null
}

/** A .ts/.tsx source file that is not a test (tests sit beside their code) nor a declaration. */
function isCode(repoPath: string): boolean {
  const posix = toPosix(repoPath)
  return /\.tsx?$/.test(posix) && !/\.(test|spec)\.tsx?$/.test(posix) && !posix.endsWith('.d.ts')
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/').replace(/^\.\//, '')
}
