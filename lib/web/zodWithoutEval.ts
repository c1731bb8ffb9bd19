import { z } from 'zod'

/**
 * In the browser, zod must not look for eval. Building an object schema, zod 4 probes
 * `new Function('')` to decide on its JIT parser; the page's CSP has no 'unsafe-eval'
 * (lib/web/contentSecurityPolicy.ts), so the probe fails (zod catches it) and the browser
 * still reports a CSP violation. Imported first by each module whose schemas the browser
 * builds (lib/mint/mintRequestSchema.ts), so it runs before them; the server keeps the JIT.
 */
if (typeof window !== 'undefined') z.config({ jitless: true })
