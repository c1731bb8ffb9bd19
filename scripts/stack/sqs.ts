import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import Module, { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { createSqsClient } from '../../worker/sqs/createSqsClient'
import { createMintSendQueues } from './sqsQueues'

/**
 * The embedded SQS endpoint of the local stack and the tests:
 * `local-aws-sqs` from npm (pure Node, no Docker, no Java), on 127.0.0.1, speaking the
 * JSON protocol of the current @aws-sdk/client-sqs; the queue and its dead-letter queue
 * (redrive policy maxReceiveCount 5) are created here, as CloudFormation creates them in
 * production (deploy/lib/addQueue.ts): no code path of the worker sets a redrive policy.
 *
 * The emulator (pinned 2.0.2) differs from SQS in four ways that matter to a consumer;
 * they are corrected when it is loaded (EMULATOR_FIXES, each asserted to apply once):
 * - a long poll returned only once it had MaxNumberOfMessages messages or the wait was
 *   over (SQS answers as soon as a message is there), and could return one message
 *   twice when its visibility ran out during the wait;
 * - ChangeMessageVisibility counted as a receive (ApproximateReceiveCount + 1), so a
 *   visibility heartbeat would push a healthy message into the DLQ;
 * - ReceiveMessage read the deprecated AttributeNames only, not MessageSystemAttributeNames;
 * - ApproximateNumberOfMessages counted the messages in flight too.
 * Its queues live in memory: a restart of the stack starts them empty, and the stack
 * hands unsent-and-unfinished outbox rows to the relay again (resendOpenOutboxRows).
 */

export type StartSqsServerParameters = {
  /** 0 (the default) picks a free port */
  port?: number
  /** the queue's default visibility timeout; the worker's heartbeat extends it while it works */
  visibilityTimeoutS?: number
  maxReceiveCount?: number
  queueName?: string
}

export type StartSqsServerReturnType = {
  /** http://127.0.0.1:PORT: SQS_ENDPOINT */
  url: string
  queueUrl: string
  dlqUrl: string
  stop: () => Promise<void>
}

type CreateSqsServer = (options: {
  port: number
  hostname: string
  emulateQueueCreationLifecycle: boolean
}) => Promise<Server>

const EMULATOR_FIXES: ReadonlyArray<readonly [string, string]> = [
  // answer a long poll as soon as a round found a message
  [
    'if(r.length==e){clearInterval(c),clearTimeout(n),o();break}}},10)',
    'if(r.length==e){clearInterval(c),clearTimeout(n),o();break}}r.length>0&&(clearInterval(c),clearTimeout(n),o())},10)',
  ],
  // a visibility change is not a receive
  [
    'let n=Number(t.record.attributes.ApproximateReceiveCount)+1;t.record.attributes.ApproximateReceiveCount=String(n),n==1&&',
    'let n=Number(t.record.attributes.ApproximateReceiveCount)+(i?0:1);t.record.attributes.ApproximateReceiveCount=String(n),!i&&n==1&&',
  ],
  // ApproximateNumberOfMessages counts the visible ones only (in flight is ApproximateNumberOfMessagesNotVisible)
  [
    'ApproximateNumberOfMessages:String(S(this,E).filter(o=>!o.delayed).length)',
    'ApproximateNumberOfMessages:String(S(this,E).filter(o=>!o.delayed&&o.visible).length)',
  ],
  // the SDK's current name for the system attributes of a receive
  [
    'MaxNumberOfMessages:r,AttributeNames:n,MessageAttributeNames:o}=this.body',
    'MaxNumberOfMessages:r,MessageSystemAttributeNames:n=this.body.AttributeNames,MessageAttributeNames:o}=this.body',
  ],
]

let loaded: CreateSqsServer | undefined

/** local-aws-sqs with EMULATOR_FIXES applied, compiled as its own CommonJS module. */
function compileEmulator(): CreateSqsServer {
  if (loaded) return loaded
  const require = createRequire(import.meta.url)
  const file = require.resolve('local-aws-sqs')
  let source = readFileSync(file, 'utf8')
  for (const [from, to] of EMULATOR_FIXES) {
    const count = source.split(from).length - 1
    if (count !== 1)
      throw new Error(`local-aws-sqs: a fix does not apply (found ${count} times): ${from.slice(0, 60)}…`)
    source = source.replace(from, to)
  }
  // Module's compile hooks are not in @types/node: the two members used, typed here
  const mod = new Module(file) as Module & { _compile: (code: string, filename: string) => void }
  const statics = Module as unknown as { _nodeModulePaths: (dir: string) => string[] }
  mod.filename = file
  mod.paths = statics._nodeModulePaths(path.dirname(file))
  mod._compile(source, file)
  const exported = mod.exports as { createSqsServer?: CreateSqsServer }
  if (typeof exported.createSqsServer !== 'function') throw new Error('local-aws-sqs: no createSqsServer export')
  loaded = exported.createSqsServer
  return loaded
}

/** Starts the embedded endpoint and creates the mint_send queue and its DLQ. */
export async function startSqsServer(p: StartSqsServerParameters = {}): Promise<StartSqsServerReturnType> {
  const createSqsServer = compileEmulator()
  const server = await createSqsServer({
    port: p.port ?? 0,
    hostname: '127.0.0.1',
    emulateQueueCreationLifecycle: false,
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  const client = createSqsClient({ region: 'us-east-1', endpoint: url })
  try {
    const queues = await createMintSendQueues(client, {
      queueName: p.queueName ?? 'mintdesk-mint-send',
      visibilityTimeoutS: p.visibilityTimeoutS ?? 60,
      maxReceiveCount: p.maxReceiveCount ?? 5,
    })
    return {
      url,
      ...queues,
      stop: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    }
  } finally {
    client.destroy()
  }
}
