import { loadConfig } from '../../lib/config/loadConfig'
import type { WorkerSettings } from '../BenchResult'

/**
 * The worker's settings as the stack's children get them: their
 * environment read by lib/config, whose defaults fill the rest.
 */
export function workerSettings(stackEnv: Record<string, string>): WorkerSettings {
  const config = loadConfig({ role: 'tool', env: { ...stackEnv, ...process.env } })
  return {
    concurrency: config.worker.concurrency,
    pollMs: config.worker.pollMs,
    confirmPollMs: config.worker.confirmPollMs,
    confirmations: config.confirmations,
    sendBatch: config.worker.sendBatch,
  }
}
