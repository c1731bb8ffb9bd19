/**
 * The client's IP address as far as this process can tell, for throttling only (never
 * for authorization). Next.js sets `X-Forwarded-For` to the socket address when the
 * request has none; a load balancer (ALB) appends the address it saw. So the LAST entry
 * is the one added by the nearest hop, and the hardest to forge: with one trusted proxy
 * in front it is the real client. Without a proxy a client can forge the header; the
 * per-email limit still holds then.
 */
export function getClientIp(request: { headers: Headers }): string | null {
  const forwarded = request.headers.get('x-forwarded-for')
  if (forwarded) {
    const parts = forwarded
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
    const last = parts.at(-1)
    if (last) return normalizeIp(last)
  }
  const real = request.headers.get('x-real-ip')?.trim()
  return real ? normalizeIp(real) : null
}

function normalizeIp(ip: string): string {
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) and the IPv4 address are the same client
  const lower = ip.toLowerCase()
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower
}
