import { ConfigError } from '@/lib/errors/config'

export type CliLog = (level: 'info' | 'error', msg: string, fields?: Record<string, unknown>) => void

/** JSON lines in the shape of the worker's pino lines (worker/runtime/logger.ts). */
export function createCliLog(service: string): CliLog {
  return (level, msg, fields = {}) => {
    const line = `${JSON.stringify({ level, time: new Date().toISOString(), service, msg, ...fields })}\n`
    ;(level === 'info' ? process.stdout : process.stderr).write(line)
  }
}

export type RunCliParameters = { name: string; log: CliLog; main: () => Promise<number> }

/**
 * Runs a one-off command (the ECS tasks: migrate, create-user, signers): its exit code,
 * a refused configuration logged with the variables it names, any other failure with its
 * stack; and an exit after 5 s even if a pool was left open, so a task never hangs.
 */
export async function runCli({ name, log, main }: RunCliParameters): Promise<void> {
  try {
    process.exitCode = await main()
  } catch (err) {
    if (err instanceof ConfigError) log('error', err.message, { variables: err.variables })
    else log('error', `${name} failed`, { err: err instanceof Error ? (err.stack ?? err.message) : String(err) })
    process.exitCode = 1
  }
  setTimeout(() => process.exit(process.exitCode ?? 1), 5_000).unref()
}
