import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { MintRequestInput } from '@/lib/mint/mintRequestSchema'
import { type Api, createHandlerApi } from '@/tests/chaos/api'
import {
  BAD_INPUT_STATUSES,
  type BadRequest,
  badRequest,
  errorShapeProblems,
  headersOf,
  validBase,
} from '@/tests/chaos/badInputs'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients } from '@/tests/helpers/recipients'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'
import { runAsWith } from './fakeSession'

// Bad input: fast-check throws random and adversarial bodies at POST
// /api/gold/mint through the REAL route handler (wrapper, zod schema, domain call) and a
// real database; only the session is faked. Every answer must be a 4xx in docs/api.md's error
// shape, and no row may appear in any table the intake writes.
vi.mock('@/lib/web/auth/getSessionUser', async () => (await import('./fakeSession')).fakeSessionModule)

const ORIGIN = 'http://localhost:3000'
const RUNS = Number(process.env.FUZZ_RUNS ?? 1500)

let t: TestDatabase
let u: TestUsers
let api: Api
let closeDb: () => Promise<void>
let tried = 0

type Counts = Record<string, number>

async function countRows(): Promise<Counts> {
  const [row] = await t.sql<Counts[]>`
    select (select count(*)::int from mint_orders) as mint_orders,
           (select count(*)::int from vault_bars) as vault_bars,
           (select count(*)::int from mint_order_bars) as mint_order_bars,
           (select count(*)::int from graphile_worker._private_jobs) as jobs,
           (select count(*)::int from graphile_worker.jobs where task_identifier = 'mint_send') as mint_send_jobs,
           (select count(*)::int from job_records) as job_records,
           (select count(*)::int from job_events) as job_events`
  return row
}

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join(',')

beforeAll(async () => {
  t = await createTestDatabase()
  u = await insertTestUsers(t.db)
  await allowRecipients(t.db, [TEST_RECIPIENT]) // validBase's recipient (the allowlist)
  process.env.DATABASE_URL = t.roleUrl('web') // the web's own role: the route runs on its grants
  const { getWebDb } = await import('@/lib/web/webProcess')
  closeDb = () => getWebDb().close()
  const mint = await import('@/app/api/gold/mint/route')
  api = createHandlerApi({ origin: ORIGIN, routes: { 'POST /api/gold/mint': mint.POST }, runAs: runAsWith(u) })
})

afterAll(async () => {
  console.log(`[attack:fuzz] ${tried} bad requests tried`)
  await closeDb?.()
  await t?.drop()
})

async function send(r: BadRequest, extraHeaders: Record<string, string> = {}) {
  const res = await api({
    method: 'POST',
    path: '/api/gold/mint',
    as: 'staff',
    headers: { ...headersOf(r), ...extraHeaders },
    body: r.body,
  })
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() }
}

describe('POST /api/gold/mint under fast-check', () => {
  it(`${RUNS} random and adversarial bodies: a 4xx in the error shape, never a 5xx, never a row`, async () => {
    const protoBefore = prototypeKeys()
    const before = await countRows()
    await fc.assert(
      fc.asyncProperty(badRequest, async (r) => {
        tried++
        const { status, contentType, text } = await send(r)
        expect(BAD_INPUT_STATUSES.has(status), `${r.kind}: status ${status} ${text.slice(0, 300)}`).toBe(true)
        expect(errorShapeProblems(status, contentType, text), r.kind).toEqual([])
        expect(await countRows(), `${r.kind}: rows written`).toEqual(before)
        // a "__proto__" key must not have reached Object.prototype
        expect(prototypeKeys()).toBe(protoBefore)
        expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
      }),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20_260_601), endOnFailure: true },
    )
  }, 240_000)

  it('a valid body with a bad Idempotency-Key header: 422, nothing written', async () => {
    const before = await countRows()
    const keys = fc.oneof(
      fc.constant(''),
      fc.string({ minLength: 129, maxLength: 400 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).filter((s) => /[^\x20-\x7e]/.test(s)),
      fc.constantFrom('\t', 'key\u007f', 'ké', ' '.repeat(129)),
    )
    await fc.assert(
      fc.asyncProperty(keys, async (key) => {
        try {
          new Headers({ 'idempotency-key': key })
        } catch {
          return // not a legal header value: no client can send it
        }
        tried++
        const body: BadRequest = {
          kind: 'bad idempotency key',
          contentType: 'application/json',
          body: JSON.stringify(validBase('IK')),
        }
        const { status, contentType, text } = await send(body, { 'idempotency-key': key })
        // Headers trims the value: a key that is only spaces/tabs becomes '' and is refused too
        expect(status, `key ${JSON.stringify(key)}: ${text}`).toBe(422)
        expect(errorShapeProblems(status, contentType, text)).toEqual([])
        expect(await countRows()).toEqual(before)
      }),
      { numRuns: 60, seed: 7 },
    )
  })

  it('the same handler still accepts a valid request (the fuzzing did not pass by breaking it)', async () => {
    const valid = validBase('OK')
    await stockBarsOf(t.db, valid as unknown as MintRequestInput) // bars come from the vault's bar list
    const before = await countRows()
    const res = await api({
      method: 'POST',
      path: '/api/gold/mint',
      as: 'staff',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    })
    expect(res.status).toBe(202)
    // APPROVAL_THRESHOLD_OZ's default, 0: every order
    expect(await res.json()).toMatchObject({ status: 'awaiting_approval' })
    const after = await countRows()
    expect(after.mint_orders).toBe(before.mint_orders + 1)
    expect(after.vault_bars).toBe(before.vault_bars) // reserved, not created
    expect(after.mint_order_bars).toBe(before.mint_order_bars + 2)
    expect(after.mint_send_jobs).toBe(before.mint_send_jobs) // its mint_send job comes with the approval
    expect(after.jobs).toBe(before.jobs + 1) // the one job added is the notification's (mint.awaiting_approval)
  })
})
