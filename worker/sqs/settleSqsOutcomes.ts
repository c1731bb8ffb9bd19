import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  type Message,
  SendMessageBatchCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs'
import type { SqsOutcome } from './startSqsConsumer'
import { traceAttributes } from './traceAttributes'

export type SettleSqsOutcomesParameters = {
  queueUrl: string
  /** the messages of a receive, each with what its handler said */
  settled: readonly { message: Message & { ReceiptHandle: string }; outcome: SqsOutcome }[]
  log: { warn: (fields: object, msg: string) => void }
}

/** SQS's batch calls take at most 10 entries. */
const MAX_ENTRIES = 10

type Entry = { Id: string }
type BatchAnswer = { Failed?: { Id?: string | undefined; Code?: string | undefined; Message?: string | undefined }[] }

/**
 * The entries through one batch call per 10; the entries a call refused (its Failed list) are
 * tried once more in a call of their own, and those refused again are returned. A call that
 * throws fails its whole chunk (returned too).
 */
async function sendInBatches<E extends Entry>(
  entries: readonly E[],
  call: (chunk: E[]) => Promise<BatchAnswer>,
): Promise<{ failed: { entry: E; why: string }[] }> {
  const failed: { entry: E; why: string }[] = []
  for (let i = 0; i < entries.length; i += MAX_ENTRIES) {
    let chunk = entries.slice(i, i + MAX_ENTRIES)
    for (let attempt = 1; chunk.length > 0; attempt++) {
      let refused: { entry: E; why: string }[]
      try {
        const answer = await call(chunk)
        const byId = new Map(chunk.map((e) => [e.Id, e]))
        refused = (answer.Failed ?? []).flatMap((f) => {
          const entry = f.Id === undefined ? undefined : byId.get(f.Id)
          return entry ? [{ entry, why: `${f.Code}: ${f.Message ?? ''}` }] : []
        })
      } catch (err) {
        refused = chunk.map((entry) => ({ entry, why: err instanceof Error ? err.message : String(err) }))
      }
      if (attempt >= 2) {
        failed.push(...refused)
        break
      }
      chunk = refused.map((r) => r.entry)
    }
  }
  return { failed }
}

/**
 * What becomes of the messages of one group (a receive and its top-ups), in batch calls (up to 10 entries each):
 * - requeue: SendMessageBatch of the new, delayed messages, then the received ones deleted
 *   with the rest; a message whose new copy SQS refused is released instead (visible after its
 *   delay, a receive counted), so the job is never left without a message;
 * - delete: DeleteMessageBatch;
 * - release: ChangeMessageVisibilityBatch to the handler's delay.
 * An entry SQS refuses is tried once more; one refused again is left: the message comes back
 * after its visibility timeout, and the handler's gate deletes a finished job's message unrun
 * (a job is run once: its state under its row lock), so nothing is lost and nothing is done
 * twice. Never throws.
 */
export async function settleSqsOutcomes(client: SQSClient, p: SettleSqsOutcomesParameters): Promise<void> {
  const toDelete: { Id: string; ReceiptHandle: string }[] = []
  const toRelease: { Id: string; ReceiptHandle: string; VisibilityTimeout: number }[] = []
  const release = (id: string, handle: string, afterS: number) =>
    toRelease.push({
      Id: id,
      ReceiptHandle: handle,
      VisibilityTimeout: Math.min(Math.max(0, Math.round(afterS)), 43_200),
    })

  const requeues = p.settled.flatMap((s, i) => (s.outcome.kind === 'requeue' ? [{ ...s, id: String(i) }] : []))
  if (requeues.length > 0) {
    const byId = new Map(requeues.map((r) => [r.id, r]))
    // a crash between the send and the delete sends a job twice at worst: the handler is idempotent on the order
    const { failed } = await sendInBatches(
      requeues.map((r) => ({
        Id: r.id,
        MessageBody: r.message.Body ?? '',
        MessageAttributes: traceAttributes(r.message.MessageAttributes?.traceparent?.StringValue),
        DelaySeconds: Math.min(900, Math.max(0, Math.ceil(r.outcome.kind === 'requeue' ? r.outcome.afterS : 0))),
      })),
      (Entries) => client.send(new SendMessageBatchCommand({ QueueUrl: p.queueUrl, Entries })),
    )
    const notSent = new Set(failed.map((f) => f.entry.Id))
    for (const f of failed)
      p.log.warn({ messageId: byId.get(f.entry.Id)?.message.MessageId, why: f.why }, 'sqs requeue refused: released')
    for (const r of requeues) {
      if (!notSent.has(r.id)) continue
      release(r.id, r.message.ReceiptHandle, r.outcome.kind === 'requeue' ? r.outcome.afterS : 0)
    }
    for (const r of requeues)
      if (!notSent.has(r.id)) toDelete.push({ Id: r.id, ReceiptHandle: r.message.ReceiptHandle })
  }
  p.settled.forEach((s, i) => {
    if (s.outcome.kind === 'delete') toDelete.push({ Id: String(i), ReceiptHandle: s.message.ReceiptHandle })
    else if (s.outcome.kind === 'release') release(String(i), s.message.ReceiptHandle, s.outcome.afterS)
  })

  const messageIdOf = (id: string) => p.settled[Number(id)]?.message.MessageId
  const deleted = await sendInBatches(toDelete, (Entries) =>
    client.send(new DeleteMessageBatchCommand({ QueueUrl: p.queueUrl, Entries })),
  )
  for (const f of deleted.failed)
    p.log.warn(
      { messageId: messageIdOf(f.entry.Id), why: f.why },
      'sqs delete refused: the message comes back after its visibility timeout and its finished job deletes it unrun',
    )
  const released = await sendInBatches(toRelease, (Entries) =>
    client.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: p.queueUrl, Entries })),
  )
  for (const f of released.failed)
    p.log.warn(
      { messageId: messageIdOf(f.entry.Id), why: f.why },
      'sqs release refused: the message comes back after its visibility timeout',
    )
}
