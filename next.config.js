// @ts-check
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants.js'

/**
 * Security headers on every response. Pages get their CSP from proxy.ts instead, with a
 * nonce per request (lib/web/contentSecurityPolicy.ts; it replaces this one, same header
 * name): scripts run only with that nonce, never 'unsafe-inline'. This nonce-less policy
 * covers what the proxy does not see (API answers, static files), where no script may
 * run inline at all. Never 'unsafe-eval' outside `next dev` (React uses eval there for
 * error overlays); `connect-src` opens websockets only in dev (hot reload). No framing.
 * @param {boolean} dev
 */
function securityHeaders(dev) {
  const csp = [
    "default-src 'self'",
    `script-src 'self'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
  return [
    // lower case, as the proxy's: one header that the proxy's per-page policy replaces
    { key: 'content-security-policy', value: csp },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'X-Frame-Options', value: 'DENY' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()' },
    { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
    // ignored by browsers over plain http (the local stack); enforced behind TLS in production
    ...(dev ? [] : [{ key: 'Strict-Transport-Security', value: 'max-age=31536000; includeSubDomains' }]),
  ]
}

/**
 * @param {string} phase
 * @returns {import('next').NextConfig}
 */
export default function nextConfig(phase) {
  const dev = phase === PHASE_DEVELOPMENT_SERVER
  return {
    output: 'standalone',
    poweredByHeader: false,
    // the build type-checks the web's own code; tests, worker, scripts and deploy are
    // checked by \`npm run typecheck\` (part of npm test), so a test file cannot break npm start
    typescript: { tsconfigPath: 'tsconfig.web.json' },
    reactStrictMode: true,
    // Packages loaded with require() at run time instead of being bundled: Node-only ones (native-ish drivers, worker
    // threads, dynamic requires), and the large libraries every route uses (viem, drizzle-orm, zod, jose). Bundled,
    // each route's server chunk carried its own copy of them (550 kB of source each, held in the heap once per route
    // loaded, and each copy compiled and instantiated again); loaded from node_modules, there is one copy per process.
    serverExternalPackages: [
      'postgres',
      'graphile-worker',
      'pino',
      'thread-stream',
      '@aws-sdk/client-kms',
      'viem',
      'drizzle-orm',
      'zod',
      'jose',
    ],
    // /api/ready reads db/migrations/meta/_journal.json at run time (expectedMigrationCount);
    // make the standalone output carry it.
    outputFileTracingIncludes: {
      '/api/ready': ['./db/migrations/**/*'],
      // /docs/api serves Scalar's bundle from the installed package (lib/web/docs/readScalarBundle.ts)
      '/docs/api/scalar.js': ['./node_modules/@scalar/api-reference/dist/browser/standalone.js'],
    },
    async headers() {
      return [{ source: '/:path*', headers: securityHeaders(dev) }]
    },
  }
}
