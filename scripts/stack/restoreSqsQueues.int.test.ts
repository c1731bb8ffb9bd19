import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sqsOutbox } from '@/db/schema'
import { enqueueMintSend } from '@/lib/web/queue/enqueueMintSend'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { insertUser } from '@/tests/helpers/users'
import { createSqsClient } from '@/worker/sqs/createSqsClient'
import { restoreSqsQueues } from './restoreSqsQueues'
import { type StartSqsServerReturnType, startSqsServer } from './sqs'

// npm start after a restart: the embedded endpoint's queues are new and empty, the database
// is not. Jobs sent but not finished go back to the relay; listed dead letters go back to the DLQ.

let t: TestDatabase
let server: StartSqsServerReturnType
let client: SQSClient

beforeAll(async () => {
  t = await createTestDatabase()
  server = await startSqsServer({ queueName: 'restore-test' })
  client = createSqsClient({ region: 'us-east-1', endpoint: server.url })
})

afterAll(async () => {
  client?.destroy()
  await server?.stop()
  await t?.drop()
})

describe('restoreSqsQueues', () => {
  it('hands unfinished sent jobs to the relay again and puts the listed dead letters back in the DLQ', async () => {
    const user = await insertUser(t.db, 'staff')
    const open = await insertOrder(t.db, { requestedBy: user.id })
    const finished = await insertOrder(t.db, { requestedBy: user.id, status: 'confirmed' })
    const a = await t.db.transaction((tx) =>
      enqueueMintSend(tx, { transport: 'sqs', orderId: open.id, maxAttempts: 5, actor: 'test' }),
    )
    const b = await t.db.transaction((tx) =>
      enqueueMintSend(tx, { transport: 'sqs', orderId: finished.id, maxAttempts: 5, actor: 'test' }),
    )
    await t.db.update(sqsOutbox).set({ sentAt: new Date() })
    await t.db.execute(sql`update job_records set state = 'done' where job_id = ${b.jobId}::bigint`)
    await t.db.execute(sql`
      insert into sqs_dead_letters (message_id, job_id, order_id, body, receive_count)
      values ('m-1', ${b.jobId}::bigint, ${finished.id}::uuid, ${JSON.stringify({ orderId: finished.id, jobId: b.jobId.toString() })}, 5)`)

    expect(await restoreSqsQueues(t.db, client, { dlqUrl: server.dlqUrl })).toEqual({ resent: 1, deadLetters: 1 })
    const [row] = await t.db.select({ sentAt: sqsOutbox.sentAt }).from(sqsOutbox).where(eq(sqsOutbox.jobId, a.jobId))
    expect(row?.sentAt).toBeNull()
    const [done] = await t.db.select({ sentAt: sqsOutbox.sentAt }).from(sqsOutbox).where(eq(sqsOutbox.jobId, b.jobId))
    expect(done?.sentAt).not.toBeNull()
    const dlq = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: server.dlqUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
    )
    expect(dlq.Attributes?.ApproximateNumberOfMessages).toBe('1')
  })
})
