import { describe, expect, it } from 'vitest'
import { loadConfig } from '@/lib/config/loadConfig'
import { ConfigError } from '@/lib/errors/config'
import { sqsGauges } from './sqsGauges'

// QUEUE_TRANSPORT: postgres by default; sqs needs the queue URLs in the worker only
// (the web writes the outbox in Postgres and never talks to SQS).

const worker = {
  DATABASE_URL: 'postgres://mintdesk_worker:x@localhost/mintdesk',
  RPC_URL: 'http://127.0.0.1:8545',
  TOKEN_ADDRESS: `0x${'1'.repeat(40)}`,
  MINTER_ADDRESS: `0x${'2'.repeat(40)}`,
  KMS_KEY_IDS: 'k1',
}

describe('QUEUE_TRANSPORT', () => {
  it('is postgres by default, with no SQS settings', () => {
    const c = loadConfig({ env: worker, role: 'worker' })
    expect(c.queueTransport).toBe('postgres')
    expect(c.sqs).toBeUndefined()
  })

  it('sqs: the worker needs SQS_QUEUE_URL and SQS_DLQ_URL, the web does not', () => {
    expect(() => loadConfig({ env: { ...worker, QUEUE_TRANSPORT: 'sqs' }, role: 'worker' })).toThrow(ConfigError)
    expect(() => loadConfig({ env: { ...worker, QUEUE_TRANSPORT: 'sqs' }, role: 'worker' })).toThrow(
      /SQS_QUEUE_URL, SQS_DLQ_URL/,
    )
    const web = loadConfig({ env: { DATABASE_URL: worker.DATABASE_URL, QUEUE_TRANSPORT: 'sqs' }, role: 'web' })
    expect(web.queueTransport).toBe('sqs')
  })

  it('sqs: the settings, with their defaults', () => {
    const c = loadConfig({
      env: {
        ...worker,
        QUEUE_TRANSPORT: 'sqs',
        SQS_QUEUE_URL: 'http://127.0.0.1:9324/1/q',
        SQS_DLQ_URL: 'http://127.0.0.1:9324/1/q-dlq',
      },
      role: 'worker',
    })
    expect(c.sqs).toEqual({
      queueUrl: 'http://127.0.0.1:9324/1/q',
      dlqUrl: 'http://127.0.0.1:9324/1/q-dlq',
      endpoint: undefined,
      visibilityTimeoutS: 60,
      waitTimeS: 20,
      concurrency: 100,
      relayMs: 500,
      dlqScanMs: 5_000,
    })
  })

  it('refuses an unknown transport', () => {
    expect(() => loadConfig({ env: { ...worker, QUEUE_TRANSPORT: 'kafka' }, role: 'worker' })).toThrow(
      /QUEUE_TRANSPORT/,
    )
  })
})

describe('sqsGauges', () => {
  it('writes the queue by state, the oldest age and the DLQ depth', () => {
    const families = sqsGauges({ unsent: 1, depth: 2, inFlight: 3, oldestAgeSeconds: 4, deadLetters: 5 })
    expect(families.map((f) => f.name)).toEqual([
      'mintdesk_sqs_messages',
      'mintdesk_sqs_oldest_message_age_seconds',
      'mintdesk_sqs_dead_letters',
    ])
    expect(families[0]?.samples).toEqual([
      { labels: { state: 'unsent' }, value: 1 },
      { labels: { state: 'waiting' }, value: 2 },
      { labels: { state: 'in_flight' }, value: 3 },
    ])
    expect(families[2]?.samples).toEqual([{ value: 5 }])
  })
})
