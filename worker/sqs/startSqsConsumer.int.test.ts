import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqsClient } from '@/worker/sqs/createSqsClient'
import { type StartSqsServerReturnType, startSqsServer } from '../../scripts/stack/sqs'
import { waitFor } from '../../tests/helpers/waitFor'
import { createLogger } from '../runtime/logger'
import { startSqsConsumer } from './startSqsConsumer'

// Two consumers on one queue whose visibility timeout (1 s) is far shorter than the work
// (3.5 s): the visibility heartbeat keeps each message hidden while it is worked, so no
// message is ever worked by two consumers at once, and each is worked exactly once.

let server: StartSqsServerReturnType
let client: SQSClient
const log = createLogger({ level: 'silent' })

beforeAll(async () => {
  server = await startSqsServer({ visibilityTimeoutS: 1, queueName: 'heartbeat-test' })
  client = createSqsClient({ region: 'us-east-1', endpoint: server.url })
})

afterAll(async () => {
  client?.destroy()
  await server?.stop()
})

describe('the visibility heartbeat', () => {
  it('keeps two consumers from ever working one message at once, and each message is worked once', async () => {
    const bodies = Array.from({ length: 8 }, (_, i) => `message-${i}`)
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: server.queueUrl,
        Entries: bodies.map((b, i) => ({ Id: String(i), MessageBody: b })),
      }),
    )

    const working = new Map<string, number>()
    const worked: string[] = []
    let overlaps = 0
    const one = (consumer: string) => async (d: { body: string }) => {
      const now = (working.get(d.body) ?? 0) + 1
      working.set(d.body, now)
      if (now > 1) overlaps++
      worked.push(`${consumer}:${d.body}`)
      await new Promise((r) => setTimeout(r, 3_500))
      working.set(d.body, (working.get(d.body) ?? 1) - 1)
      return { kind: 'delete' } as const
    }
    // the messages of a receive worked side by side
    const handle = (consumer: string) => (ds: { body: string }[]) => Promise.all(ds.map(one(consumer)))
    const common = { queueUrl: server.queueUrl, concurrency: 3, visibilityTimeoutS: 1, waitTimeS: 1, log }
    const a = startSqsConsumer(client, { ...common, handle: handle('a') })
    const b = startSqsConsumer(client, { ...common, handle: handle('b') })
    try {
      await waitFor(async () => worked.length === bodies.length && [...working.values()].every((n) => n === 0), {
        timeoutMs: 30_000,
        what: 'every message worked',
      })
      // well past several visibility timeouts: nothing comes back
      await new Promise((r) => setTimeout(r, 3_000))
    } finally {
      await Promise.all([a.stop(10_000), b.stop(10_000)])
    }
    expect(overlaps).toBe(0)
    expect(worked.map((w) => w.split(':')[1]).sort()).toEqual([...bodies].sort())
    // both consumers took part
    expect(new Set(worked.map((w) => w.split(':')[0])).size).toBe(2)
  }, 60_000)
})
