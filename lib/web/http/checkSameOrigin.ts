import { ForbiddenError } from '@/lib/web/errors/auth'

export const MUTATING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export type CheckSameOriginParameters = {
  /** the app's public URL (`APP_URL`); when unset, the request's own origin is used */
  appUrl?: string | undefined
}

/**
 * CSRF defence for cookie-authenticated mutations: a POST/PUT/PATCH/DELETE must come
 * from the app's own origin. The `Origin` header must equal it; without an `Origin`,
 * `Sec-Fetch-Site` must be `same-origin`; with neither, the request is refused (scripts
 * must send `Origin`). Safe methods pass. Throws `ForbiddenError` (403).
 */
export function checkSameOrigin(request: Request, { appUrl }: CheckSameOriginParameters = {}): void {
  if (!MUTATING_METHODS.has(request.method.toUpperCase())) return
  const expected = appUrl ? originOf(appUrl) : requestOrigin(request)
  const origin = request.headers.get('origin')
  if (origin !== null) {
    if (expected !== null && origin !== 'null' && originOf(origin) === expected) return
    throw new ForbiddenError('Cross-origin request refused.')
  }
  const site = request.headers.get('sec-fetch-site')
  if (site !== null && site.trim().toLowerCase() === 'same-origin') return
  throw new ForbiddenError('Cross-origin request refused.')
}

/**
 * The origin the request was addressed to, as the client saw it: `X-Forwarded-Proto` /
 * `X-Forwarded-Host` when a proxy (or Next.js itself) set them, else `Host`, else the URL.
 */
export function requestOrigin(request: Request): string | null {
  let url: URL | null = null
  try {
    url = new URL(request.url)
  } catch {
    url = null
  }
  const proto = first(request.headers.get('x-forwarded-proto')) ?? url?.protocol.replace(/:$/, '')
  const host = first(request.headers.get('x-forwarded-host')) ?? first(request.headers.get('host')) ?? url?.host
  if (!proto || !host) return null
  return originOf(`${proto}://${host}`)
}

function first(header: string | null): string | undefined {
  const value = header?.split(',')[0]?.trim()
  return value ? value : undefined
}

/** Normalized origin (lowercase host, default port dropped), or null when not an http(s) URL. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    return url.origin
  } catch {
    return null
  }
}
