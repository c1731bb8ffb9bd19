import { loadConfig } from '@/lib/config/loadConfig'
import { ConfigError } from '@/lib/errors/config'
import { checkWebDatabase } from '@/lib/web/config/checkWebDatabase'

/**
 * The web's startup check (called by instrumentation.ts, Node.js runtime only): parses
 * the configuration for the `web` role, then (production) checks its database role's
 * privileges and that its MINTER_ADDRESS is the worker's
 * (lib/web/config/checkWebDatabase.ts), and exits the process with the message when
 * either is refused (each names the variable). Skipped while `next build` loads the
 * module: a build has no runtime configuration.
 */
export async function assertWebConfig(): Promise<void> {
  if (process.env.NEXT_PHASE === 'phase-production-build') return
  const refuse = (message: string): never => {
    console.error(`[mintdesk] refusing to start the web: ${message}`)
    process.exit(1)
  }
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig({ role: 'web' })
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    return refuse(err.message)
  }
  const checked = await checkWebDatabase(config)
  if (!checked.ok) refuse(checked.message)
}
