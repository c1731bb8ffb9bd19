import path from 'node:path'
import ts from 'typescript'

// The structure rules of docs/architecture.md ("Folders" and "Which way imports run"),
// and which process a file's folder says runs it, as data and small pure functions, so
// that structure.test.ts applies them to the real tree and rules.test.ts proves each one
// on a tiny in-memory example.

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
 * - lib -> db; never worker, app, components, cli, scripts or tests (the token's
 *   compiled artifact is read by the local stack's deploy, scripts/stack/).
 * - db -> nothing of ours.
 * - cli (the tools shipped in the images) -> lib, db.
 * - nothing imports app; production code never imports scripts/, bench/ or tests/.
 * The dev tools (scripts/, bench/) may use production code, each other and tests/ (the
 * chaos runner), never app or components. contracts/ may use lib (an error class);
 * deploy/ may use lib and worker (the names of the metrics the worker emits, which its
 * alarms watch). tests/ may import anything.
 */
export const ALLOWED_IMPORTS: Readonly<Record<Folder, readonly Folder[]>> = {
  app: ['app', 'components', 'lib', 'db'],
  components: ['components', 'lib'],
  lib: ['lib', 'db'],
  db: ['db'],
  worker: ['worker', 'lib', 'db'],
  cli: ['cli', 'lib', 'db'],
  scripts: ['scripts', 'bench', 'lib', 'db', 'worker', 'cli', 'contracts', 'tests'],
  bench: ['bench', 'scripts', 'lib', 'db', 'worker', 'cli', 'contracts', 'tests'],
  contracts: ['contracts', 'lib'],
  deploy: ['deploy', 'lib', 'worker'],
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

/**
 * The processes that run production code. `tools` are the local stack, the deploy, the
 * bench and the contracts' build (scripts/, deploy/, bench/, contracts/): they start
 * from their own files but are no production process. Tests are no entry point at all.
 */
export type EntrySet = 'web' | 'worker' | 'cli' | 'tools'
export const PROCESSES: readonly EntrySet[] = ['web', 'worker', 'cli']

/** The files of Next.js's App Router that Next loads itself (pages, layouts, route handlers, ...). */
const NEXT_APP_FILE =
  /^app\/(.+\/)?(page|layout|route|loading|error|global-error|not-found|forbidden|unauthorized|template|default|opengraph-image|twitter-image|icon|apple-icon|sitemap|robots|manifest)\.(tsx?|jsx?)$/

/**
 * Where each process starts: the files it loads without being imported.
 * - web: the App Router files under app/, the root files Next loads (proxy.ts,
 *   instrumentation.ts and its Node half) and next.config.
 * - worker: the worker binary, worker/runtime/main.ts (worker.mjs of the release build).
 * - cli: the operator tools, cli/*.ts (the other bundles of the release build, in the
 *   worker image, and the web image's health check).
 * - tools: every file of scripts/, deploy/, bench/ and contracts/.
 */
export const ENTRY_POINTS: Readonly<Record<EntrySet, readonly RegExp[]>> = {
  web: [NEXT_APP_FILE, /^(proxy|instrumentation|instrumentation-node)\.ts$/, /^next\.config\.(js|mjs|ts)$/],
  worker: [/^worker\/runtime\/main\.ts$/],
  cli: [/^cli\/[^/]+\.ts$/],
  tools: [/^(scripts|deploy|bench|contracts)\/.+\.(tsx?|mjs|cjs|js)$/],
}

/** The entry sets a file starts (none for a test, a declaration or a file imported only). */
export function entrySetsOf(repoPath: string): EntrySet[] {
  const posix = toPosix(repoPath)
  if (!isModule(posix)) return []
  return (Object.keys(ENTRY_POINTS) as EntrySet[]).filter((set) => ENTRY_POINTS[set].some((re) => re.test(posix)))
}

/**
 * The repository file an import names, trying what TypeScript and the bundlers try
 * (`x.ts`, `x.tsx`, `x/index.ts`, `x.js` for `x.ts`, ...), or null for a package or a
 * missing file.
 */
export function resolveImport(fromRepoPath: string, specifier: string, files: ReadonlySet<string>): string | null {
  const base = resolveSpecifier(fromRepoPath, specifier)
  if (base === null) return null
  const stem = base.replace(/\.(m|c)?js$/, '')
  const candidates = [base, ...['.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx'].map((ext) => base + ext)]
  if (stem !== base) candidates.push(`${stem}.ts`, `${stem}.tsx`)
  return candidates.find((c) => files.has(c)) ?? null
}

/**
 * Which entry sets reach each file: from every entry point, along every import (type
 * imports too: a type file shared by two processes is shared code). Only the files
 * reached are read (`importsOf`); a file reached by none is not in the result.
 */
export function reachability(
  files: readonly string[],
  importsOf: (repoPath: string) => readonly ImportRef[],
): Map<string, Set<EntrySet>> {
  const fileSet = new Set(files.map(toPosix))
  const targets = new Map<string, string[]>()
  const targetsOf = (file: string): string[] => {
    let found = targets.get(file)
    if (!found) {
      // JSON, CSS: read, not followed
      found = isModule(file) ? importsOf(file).flatMap((ref) => resolveImport(file, ref.specifier, fileSet) ?? []) : []
      targets.set(file, found)
    }
    return found
  }
  const reached = new Map<string, Set<EntrySet>>()
  for (const set of Object.keys(ENTRY_POINTS) as EntrySet[]) {
    const stack = [...fileSet].filter((f) => entrySetsOf(f).includes(set))
    for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
      const sets = reached.get(file) ?? new Set<EntrySet>()
      if (sets.has(set)) continue
      sets.add(set)
      reached.set(file, sets)
      stack.push(...targetsOf(file))
    }
  }
  return reached
}

/**
 * Files exempt from the process rules, each with the reason. Keep it short: a file that
 * fits no home usually wants moving, splitting or deleting.
 */
export const PROCESS_EXCEPTIONS: Readonly<Record<string, string>> = {
  'lib/keys/devKeys.ts':
    "the dev keys' one home, shared with the stack and the tests; in this tree only the web's dev signer reaches it (the web and the worker refuse these keys in production)",
  'lib/web/zodWithoutEval.ts':
    "the browser's zod setting (no eval under the page's CSP): its one statement runs only where `window` exists; the shared schemas import it first so it runs before they are built, which makes cli/limits.ts load it as a no-op",
}

/** Which processes a home holds code of: one process, or code shared by at least two. */
export type Home = 'web' | 'worker' | 'cli' | 'shared'

/**
 * What each production folder holds, by the production processes that reach its files
 * (first prefix that matches): a file reached from one process only lives with that
 * process; lib/ (outside lib/web/) holds what at least two of web, worker and cli reach.
 * db/ is every process's schema and client and has no home rule (only the reach rule).
 */
export const PROCESS_HOMES: readonly { prefix: string; home: Home | 'any' }[] = [
  // graphile-worker's tables have one home, whichever process reads or writes them (decision 011)
  { prefix: 'lib/jobs/', home: 'any' },
  { prefix: 'lib/web/', home: 'web' },
  { prefix: 'lib/', home: 'shared' },
  { prefix: 'worker/', home: 'worker' },
  { prefix: 'app/', home: 'web' },
  { prefix: 'components/', home: 'web' },
  { prefix: 'cli/', home: 'cli' },
]

const HOME_FOLDER: Readonly<Record<Home, string>> = {
  web: 'lib/web/<domain>/ (or app/, components/)',
  worker: 'worker/<domain>/',
  cli: 'cli/',
  shared: 'lib/<domain>/',
}

/**
 * Whether a file is held to the process rules: production code (PRODUCTION_FOLDERS, the web's root files), not a test.
 */
export function isProcessChecked(repoPath: string): boolean {
  const folder = folderOf(repoPath)
  return folder !== null && PRODUCTION_FOLDERS.includes(folder) && isCode(repoPath)
}

export type ProcessViolation = { file: string; reachedBy: EntrySet[]; rule: string }

/**
 * The process rule a production file breaks, given the entry sets that reach it, or null:
 * - reached from no entry point: dead code (delete it and its test, or list it in
 *   PROCESS_EXCEPTIONS with its reason);
 * - reached from the tools only: it belongs to them (scripts/, or beside its one user);
 * - otherwise its folder's home must match the production processes that reach it.
 */
export function checkProcess(
  repoPath: string,
  reachedBy: ReadonlySet<EntrySet>,
  exceptions: Readonly<Record<string, string>> = PROCESS_EXCEPTIONS,
): ProcessViolation | null {
  const file = toPosix(repoPath)
  if (!isProcessChecked(file) || Object.hasOwn(exceptions, file)) return null
  const sets = (Object.keys(ENTRY_POINTS) as EntrySet[]).filter((s) => reachedBy.has(s))
  const processes = PROCESSES.filter((p) => reachedBy.has(p))
  const violation = (rule: string): ProcessViolation => ({ file, reachedBy: sets, rule })
  if (sets.length === 0) {
    return violation(
      'reached from no entry point: delete it and its test, or list it in PROCESS_EXCEPTIONS with a reason',
    )
  }
  if (processes.length === 0) {
    return violation(
      'reached only from the tools (scripts/, deploy/, bench/, contracts/), never from web, worker or cli: it belongs in scripts/ or beside its one user',
    )
  }
  const home = PROCESS_HOMES.find((h) => file.startsWith(h.prefix))?.home
  // db/, lib/jobs/, the web's root files: reached, nothing more asked
  if (home === undefined || home === 'any') return null
  const expected: Home = processes.length >= 2 ? 'shared' : (processes[0] as Home) // one of web, worker, cli
  if (home === expected) return null
  return violation(
    expected === 'shared'
      ? `reached from ${processes.join(' and ')}: code that two processes share lives in ${HOME_FOLDER.shared}, outside lib/web/`
      : `reached only from ${expected === 'cli' ? 'cli/' : `the ${expected}`}: it belongs in ${HOME_FOLDER[expected]}`,
  )
}

/**
 * A module the graph follows: code of any flavour, not a test
 * (tests sit beside their code, or in tests/) nor a declaration.
 */
function isModule(repoPath: string): boolean {
  return (
    /\.(tsx?|mjs|cjs|js)$/.test(repoPath) &&
    !/\.(test|spec)\.tsx?$/.test(repoPath) &&
    !repoPath.endsWith('.d.ts') &&
    !repoPath.startsWith('tests/')
  )
}

/** A .ts/.tsx source file that is not a test (tests sit beside their code) nor a declaration. */
function isCode(repoPath: string): boolean {
  const posix = toPosix(repoPath)
  return /\.tsx?$/.test(posix) && !/\.(test|spec)\.tsx?$/.test(posix) && !posix.endsWith('.d.ts')
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/').replace(/^\.\//, '')
}
