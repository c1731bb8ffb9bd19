// The worker binary: `tsx worker/runtime/main.ts` (npm run worker). N copies may run at once.
import os from 'node:os'
import { type Config, loadConfig } from '@/lib/config/loadConfig'
import { startTracing } from '@/lib/telemetry/startTracing'
import { createLogger } from './logger'
import { type RunningWorker, startWorker } from './startWorker'

const base = { host: os.hostname(), pid: process.pid }
let config: Config
try {
  config = loadConfig({ role: 'worker' })
} catch (error) {
  createLogger({ level: 'info', base }).fatal({ err: error }, 'invalid configuration')
  process.exit(1)
}
// a worker with failpoints kills itself: each line written before it goes on, so its last one is not lost
const log = createLogger({ level: config.logLevel, base, sync: config.worker.failpoints.length > 0 })
// tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set; its spans are exported before a graceful exit
const tracing = startTracing({ serviceName: 'mintdesk-worker' }).catch((error: unknown) => {
  log.warn({ err: error }, 'tracing could not start: running without it')
  return { enabled: false, shutdown: async () => {} }
})

let worker: RunningWorker | undefined
let signalled: NodeJS.Signals | undefined

const exit = (code: number) => {
  log.flush()
  process.exit(code)
}

const shutdown = (signal: NodeJS.Signals) => {
  if (signalled) {
    log.warn({ signal }, 'second signal: exiting now')
    exit(1)
  }
  signalled = signal
  if (!worker) return // still starting: stopped right after start
  worker
    .stop(signal)
    .then(() => tracing.then((t) => t.shutdown()))
    .then(
      () => exit(0),
      (error: unknown) => {
        log.fatal({ err: error }, 'shutdown failed')
        exit(1)
      },
    )
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
process.on('unhandledRejection', (error) => {
  log.fatal({ err: error }, 'unhandled rejection')
  exit(1)
})

tracing
  .then(() =>
    startWorker({
      config,
      log,
      onFatal: (error) => {
        log.fatal({ err: error }, 'worker cannot go on')
        exit(1)
      },
    }),
  )
  .then(
    (started) => {
      worker = started
      if (signalled) {
        const signal = signalled
        signalled = undefined
        shutdown(signal)
      }
    },
    (error: unknown) => {
      log.fatal({ err: error }, 'worker failed to start')
      exit(1)
    },
  )
