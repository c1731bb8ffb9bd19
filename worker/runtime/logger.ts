import { type Logger, type LoggerOptions, pino } from 'pino'
import type { Config } from '@/lib/config/loadConfig'
import { redactSecrets } from '@/lib/errors/redactSecrets'

export type CreateLoggerParameters = {
  level: Config['logLevel']
  /** fields on every line (service, host, pid, workerId, ...) */
  base?: Record<string, unknown>
  /**
   * Write each line before going on (a blocking write to stdout): for a worker with
   * failpoints, whose SIGKILL would otherwise race the asynchronous write of its last line
   * (flushSync does not rewrite a line whose asynchronous write has begun). Not in production.
   */
  sync?: boolean
}

export type WorkerLogger = Logger

/**
 * The worker's structured JSON log (one object per line on stdout). Job lines carry
 * jobId, task, orderId and attempt (see runTask); errors are serialised with their stack.
 * Every line is written with its URLs redacted (lib/errors/redactSecrets.ts): viem errors
 * carry the RPC URL, and with it the provider's API key, in their message and fields.
 */
export function createLogger({ level, base = {}, sync = false }: CreateLoggerParameters): WorkerLogger {
  const options = {
    level,
    base: { service: 'mintdesk-worker', ...base },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
    hooks: { streamWrite: redactSecrets },
  } satisfies LoggerOptions
  return sync ? pino(options, pino.destination({ dest: 1, sync: true })) : pino(options)
}
