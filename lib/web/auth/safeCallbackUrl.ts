/**
 * A `callbackUrl` that is safe to navigate to after sign-in: a path on this site
 * (`/mints?status=pending`), never another origin. Anything else -> null.
 * Refuses protocol-relative (`//evil`), backslash tricks (`/\evil`), absolute URLs and
 * control characters; an absolute URL on `ownOrigin` is reduced to its path.
 */
export function safeCallbackUrl(value: unknown, { ownOrigin }: { ownOrigin?: string } = {}): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null
  let candidate = value
  if (!value.startsWith('/')) {
    if (!ownOrigin) return null
    let url: URL
    try {
      url = new URL(value)
    } catch {
      return null
    }
    if (url.origin !== new URL(ownOrigin).origin) return null
    candidate = `${url.pathname}${url.search}${url.hash}`
  }
  if (candidate.startsWith('//')) return null
  // Resolve against a dummy origin: the result must stay on it (guards against odd encodings).
  const base = 'http://callback.invalid'
  let resolved: URL
  try {
    resolved = new URL(candidate, base)
  } catch {
    return null
  }
  if (resolved.origin !== base) return null
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`
  // never bounce back into the sign-in flow
  if (path === '/login' || path.startsWith('/login?') || path.startsWith('/api/auth')) return null
  return path
}
