export type ContentSecurityPolicyParameters = {
  /** this response's nonce (createCspNonce): the only way an inline or first script runs */
  nonce: string
  /** `next dev`: React needs eval for its error overlay, and hot reload a websocket */
  dev: boolean
}

/**
 * The Content-Security-Policy of a page, built per request by proxy.ts. Scripts run only
 * with this response's nonce ('strict-dynamic' lets them load Next's chunks): no
 * 'unsafe-inline', so an injected inline script does not run even if escaping failed.
 * Next reads the nonce from this header on the request and puts it on its own scripts,
 * which is why pages render dynamically (the root layout reads the session). Styles keep
 * 'unsafe-inline' (React's style attributes); no framing; 'unsafe-eval' only in dev.
 * next.config.js sends the same policy without a nonce (`script-src 'self'`) on what the
 * proxy does not see (API answers, static files).
 */
export function contentSecurityPolicy({ nonce, dev }: ContentSecurityPolicyParameters): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** 128 random bits, base64: unguessable and new for every response (Web Crypto: Node 20+ and the edge). */
export function createCspNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
}
