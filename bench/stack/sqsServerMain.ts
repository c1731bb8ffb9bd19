// The embedded SQS endpoint as its own process, for the bench (its CPU is then a process of its own):
//   tsx bench/stack/sqsServerMain.ts
// Prints `SQS_ENDPOINT=... SQS_QUEUE_URL=... SQS_DLQ_URL=...` on
// one stdout line once it listens; SIGTERM or SIGINT stops it.
import { startSqsServer } from '../../scripts/stack/sqs'

const server = await startSqsServer()
process.stdout.write(`SQS_ENDPOINT=${server.url} SQS_QUEUE_URL=${server.queueUrl} SQS_DLQ_URL=${server.dlqUrl}\n`)

let stopping = false
const shutdown = () => {
  if (stopping) return
  stopping = true
  server.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error('[sqs] error while stopping', err)
      process.exit(1)
    },
  )
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
