import { loadConfig } from '@/lib/config/loadConfig'
import { ConfigError } from '@/lib/errors/config'

/**
 * The web's startup check (called by instrumentation.ts, Node.js runtime only): parses
 * the configuration for the `web` role and exits the process with the message when it
 * is refused (lib/config/loadConfig.ts names each variable). Skipped while `next build`
 * loads the module: a build has no runtime configuration.
 */
export function assertWebConfig(): void {
  if (process.env.NEXT_PHASE === 'phase-production-build') return
  try {
    loadConfig({ role: 'web' })
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    console.error(`[mintdesk] refusing to start the web: ${err.message}`)
    process.exit(1)
  }
}
