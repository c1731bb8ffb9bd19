import { Logger } from 'graphile-worker'
import type { WorkerLogger } from './logger'

/**
 * graphile-worker's own log lines, as pino JSON. Its per-job info lines duplicate ours
 * (runTask logs every start, success and failure with order and job ids), so they go
 * to debug; warnings and errors stay what they are.
 */
export function graphileLogger(log: WorkerLogger): Logger {
  return new Logger((scope) => (level, message) => {
    const fields = {
      graphile: scope.label ?? 'worker',
      jobId: scope.jobId,
      task: scope.taskIdentifier,
      graphileWorkerId: scope.workerId,
    }
    // LogLevel is an ambient const enum (not importable under isolatedModules): compare its string values
    const name = String(level)
    // "Failed task ..." repeats what runTask already logged (as warn or error) for that job
    if (name === 'error' && message.startsWith('Failed task')) log.debug(fields, message)
    else if (name === 'error') log.error(fields, message)
    else if (name === 'warning') log.warn(fields, message)
    else log.debug(fields, message)
  })
}
