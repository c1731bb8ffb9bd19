// A tiny standalone graphile-worker runner with one no-op task (`bench_noop`), for
// graphile-worker's own pickup figure (bench/pickup/runNoopPickup.ts). Started by the
// bench as `node --import tsx bench/pickup/noopRunner.ts` with DATABASE_URL and the
// same WORKER_CONCURRENCY / WORKER_POLL_MS as mintdesk's worker. The task does nothing
// but note when it started (wall-clock ms); on {type:'stop'} over IPC the runner stops
// and sends those times back.
import { Logger, run } from 'graphile-worker'
import { nowMs } from '../system/clock'

const send = (message: unknown) =>
  new Promise<void>((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()))

const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 8)
const starts: Array<[string, number]> = []
const runner = await run({
  connectionString: process.env.DATABASE_URL,
  concurrency,
  maxPoolSize: concurrency + 2,
  pollInterval: Number(process.env.WORKER_POLL_MS ?? 1000),
  noHandleSignals: true,
  logger: new Logger(() => () => {}),
  // as mintdesk's worker (worker/runtime/startWorker.ts): completions are batched with delay 0
  preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  taskList: {
    bench_noop: async (_payload, helpers) => {
      starts.push([helpers.job.id, nowMs()])
    },
  },
})

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'stop') return
  void runner
    .stop()
    .then(() => send({ type: 'result', starts }))
    .then(() => process.exit(0))
})
await send({ type: 'ready' })
