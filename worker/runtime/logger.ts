import { type Logger, pino } from 'pino'
import type { Config } from '@/lib/config/loadConfig'

export type CreateLoggerParameters = {
  level: Config['logLevel']
  /** fields on every line (service, host, pid, workerId, ...) */
  base?: Record<string, unknown>
}

export type WorkerLogger = Logger

/**
 * The worker's structured JSON log (one object per line on stdout). Job lines carry
 * jobId, task, orderId and attempt (see runTask); errors are serialised with their stack.
 */
export function createLogger({ level, base = {} }: CreateLoggerParameters): WorkerLogger {
  return pino({
    level,
    base: { service: 'mintdesk-worker', ...base },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
  })
}
