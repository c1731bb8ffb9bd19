import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

/**
 * The app's API routes and pages, read from the file system (app/api/** /route.ts and
 * app/** /page.tsx), so a route or page added tomorrow is attacked too without editing
 * the tests. No imports from the app: the Playwright specs use it.
 */

export type ApiRoute = {
  /** app/api/gold/mint/[orderId]/route.ts */
  file: string
  /** /api/gold/mint/[orderId] */
  pattern: string
  /** exported HTTP methods */
  methods: string[]
}

export type AppPage = { file: string; pattern: string }

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']

function walk(dir: string, name: RegExp, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const abs = path.join(dir, entry)
    if (statSync(abs).isDirectory()) walk(abs, name, out)
    else if (name.test(entry)) out.push(abs)
  }
  return out
}

/** app/(admin)/admin/jobs/[jobId] -> /admin/jobs/[jobId]: route groups and parallel slots do not show in the URL */
function urlOf(root: string, file: string): string {
  const rel = path.relative(path.join(root, 'app'), path.dirname(file)).split(path.sep)
  const segments = rel.filter((s) => s !== '' && !/^\(.*\)$/.test(s) && !s.startsWith('@'))
  return `/${segments.join('/')}`
}

/**
 * Which HTTP methods a route file exports (`export const GET =`, `export async function POST`, `export const { GET,
 * POST } =`, `export { GET }`).
 */
export function exportedMethods(source: string): string[] {
  const found = new Set<string>()
  for (const m of source.matchAll(/export\s+(?:const|let|var|async\s+function|function)\s+([A-Z]+)\b/g)) found.add(m[1])
  for (const m of source.matchAll(/export\s+(?:const|let|var)\s*\{([^}]*)\}\s*=/g))
    for (const n of m[1].split(',')) found.add(n.split(':').pop()?.trim() ?? '')
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g))
    for (const n of m[1].split(','))
      found.add(
        n
          .split(/\s+as\s+/)
          .pop()
          ?.trim() ?? '',
      )
  return METHODS.filter((x) => found.has(x))
}

export function listApiRoutes(root: string): ApiRoute[] {
  return walk(path.join(root, 'app', 'api'), /^route\.(ts|tsx|js)$/)
    .map((file) => ({
      file: path.relative(root, file),
      pattern: urlOf(root, file),
      methods: exportedMethods(readFileSync(file, 'utf8')),
    }))
    .sort((a, b) => a.pattern.localeCompare(b.pattern))
}

export function listPages(root: string): AppPage[] {
  return walk(path.join(root, 'app'), /^page\.(tsx|ts|jsx|js)$/)
    .filter((file) => !file.includes(`${path.sep}api${path.sep}`))
    .map((file) => ({ file: path.relative(root, file), pattern: urlOf(root, file) }))
    .sort((a, b) => a.pattern.localeCompare(b.pattern))
}

/**
 * A concrete path for a pattern: `[orderId]` -> values.orderId (or a uuid no order has),
 * `[jobId]` -> a job id no job has, `[...slug]` -> 'x'.
 */
export function samplePath(pattern: string, values: Record<string, string> = {}): string {
  return pattern.replace(/\[(\.\.\.)?([^\]]+)\]/g, (_, rest: string | undefined, name: string) => {
    if (values[name] !== undefined) return encodeURIComponent(values[name])
    if (rest) return 'x'
    // an id that exists nowhere: a request that gets past the gates finds nothing to act on
    if (/id$/i.test(name) && /job/i.test(name)) return '999999999999'
    return '00000000-0000-4000-8000-000000000000'
  })
}

/**
 * The API routes anyone may call besides next-auth's own:
 * docs/api.md "Operations", the proof of reserve ("Reserves") and the OpenAPI document ("OpenAPI").
 */
export const PUBLIC_API_ROUTES: readonly string[] = [
  '/api/health',
  '/api/metrics',
  '/api/openapi.json',
  '/api/ready',
  '/api/reserves',
  '/api/reserves/attestation',
  '/api/reserves/history',
  '/api/reserves/lookup',
]

/**
 * Routes anyone may call (docs/api.md "Operations" and "Reserves",
 * next-auth's own endpoints): not 401 without a session.
 */
export function isPublicApi(pattern: string): boolean {
  return PUBLIC_API_ROUTES.includes(pattern) || pattern.startsWith('/api/auth/')
}

/** Pages anyone may see: sign-in, the refusal and the public reserves page. */
export function isPublicPage(pattern: string): boolean {
  return pattern === '/login' || pattern === '/forbidden' || pattern === '/reserves'
}
