import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MintRequestInput } from '@/lib/mint/mintRequestSchema'
import { ozToWei } from '@/lib/money/ozToWei'
import { type ErrorCode, isBaseError, statusForCode } from '@/lib/web/errors'
import { stockBarsOf } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { allowRecipients, setTestMintLimits } from '@/tests/helpers/recipients'
import { insertTestUsers, intakeSession, type TestUsers } from '@/tests/helpers/users'
import { type CreateMintOrderParameters, createMintOrder } from './createMintOrder'

// Every refusal of the intake (create_mint_order raises it inside its one statement)
// writes nothing: not an order, a bar link, a held bar, a job, a job record, a timeline
// event, an audit row or a notification, whether the order would have been pending or
// awaiting approval. And each keeps its code and HTTP status.

let t: TestDatabase
let u: TestUsers
let serial = 0

beforeAll(async () => {
  t = await createTestDatabase()
  u = await insertTestUsers(t.db)
  await allowRecipients(t.db, [TEST_RECIPIENT])
})

afterAll(async () => {
  await t.drop()
})

const fresh = () => `REF-${++serial}`

/** every row an intake can write, counted */
async function everything() {
  const [row] = await t.db.execute<Record<string, number>>(sql`
    select (select count(*)::int from mint_orders) as orders,
           (select count(*)::int from mint_order_bars) as links,
           (select count(*)::int from vault_bars where status <> 'available' or order_id is not null) as held,
           (select count(*)::int from graphile_worker._private_jobs) as jobs,
           (select count(*)::int from job_records) as records,
           (select count(*)::int from job_events) as events,
           (select count(*)::int from audit_log) as audits,
           (select count(*)::int from notification_events) as notifications`)
  return row
}

type Intake = Partial<Omit<CreateMintOrderParameters, 'request'>> & { request: MintRequestInput }

const intake = (p: Intake) => createMintOrder(t.db, { session: intakeSession(u.staff), maxAttempts: 5, ...p })

/** the refusal's code and status; fails the test if nothing was refused or if anything was written */
async function refusal(p: Intake): Promise<{ code: string; status: number; issues: unknown }> {
  const before = await everything()
  const error = await intake(p).then(
    () => null,
    (e: unknown) => e,
  )
  expect(await everything()).toEqual(before)
  if (!isBaseError(error)) throw new Error(`expected a refusal, got ${String(error)}`)
  // a refusal answers with a code of the table (lib/errors/http.ts); the expectations name it
  return { code: error.code, status: statusForCode(error.code as ErrorCode), issues: error.issues }
}

async function stocked(
  bars: Parameters<typeof buildMintRequest>[0]['bars'],
  extra: Partial<Parameters<typeof buildMintRequest>[0]> = {},
) {
  const request = buildMintRequest({ bars, ...extra })
  await stockBarsOf(t.db, request)
  return request
}

describe('createMintOrder refusals: nothing written, same code and status', () => {
  it('validation_failed 422 (the schema)', async () => {
    const request = { ...buildMintRequest({ bars: [{ serial: fresh() }] }), amount: '-1' }
    expect(await refusal({ request })).toMatchObject({ code: 'validation_failed', status: 422 })
  })

  it('validation_failed 422 (the token contract as recipient)', async () => {
    const request = await stocked([{ serial: fresh() }])
    expect(await refusal({ request, tokenAddress: TEST_RECIPIENT.toLowerCase() })).toMatchObject({
      code: 'validation_failed',
      status: 422,
    })
  })

  it('bar_not_in_vault 422', async () => {
    const listed = await stocked([{ serial: fresh() }])
    const request = buildMintRequest({
      bars: [{ serial: listed.vaultProof.bars[0]?.serial ?? '' }, { serial: 'NEVER-LISTED' }],
    })
    expect(await refusal({ request })).toMatchObject({ code: 'bar_not_in_vault', status: 422 })
  })

  it('bar_mismatch 422', async () => {
    const s = fresh()
    await stocked([{ serial: s }])
    const request = buildMintRequest({ bars: [{ serial: s, year: 2020 }] })
    expect(await refusal({ request })).toMatchObject({ code: 'bar_mismatch', status: 422 })
  })

  it('validation_failed 422 (an amount other than the list says)', async () => {
    const s = fresh()
    await stocked([{ serial: s }])
    const { vaultProof, ...rest } = buildMintRequest({ bars: [{ serial: s }] })
    const bars = vaultProof.bars.map(({ serial: sr, refiner }) => ({ serial: sr, refiner }))
    const request = { ...rest, amount: '401.000', vaultProof: { ...vaultProof, bars } }
    expect(await refusal({ request })).toEqual({
      code: 'validation_failed',
      status: 422,
      issues: [
        { path: 'amount', message: "must equal the sum of the bars' fine weights in the bar list of LDN-1: 401.084" },
      ],
    })
  })

  it('bar_already_used 409', async () => {
    const s = fresh()
    await intake({ request: await stocked([{ serial: s }]) })
    const request = await stocked([{ serial: fresh() }, { serial: s }])
    expect(await refusal({ request })).toMatchObject({ code: 'bar_already_used', status: 409 })
  })

  it('recipient_not_allowed 422', async () => {
    const request = await stocked([{ serial: fresh() }], { to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' })
    expect(await refusal({ request })).toMatchObject({
      code: 'recipient_not_allowed',
      status: 422,
    })
  })

  it('over_limit 422 (per order, then the rolling 24 h cap)', async () => {
    try {
      await setTestMintLimits(t.db, { maxOrderWei: ozToWei('401.083'), dailyCapWei: null })
      expect(await refusal({ request: await stocked([{ serial: fresh() }]) })).toMatchObject({
        code: 'over_limit',
        status: 422,
      })
      await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: ozToWei('0.001') })
      expect(await refusal({ request: await stocked([{ serial: fresh() }]) })).toMatchObject({
        code: 'over_limit',
        status: 422,
      })
    } finally {
      await setTestMintLimits(t.db, { maxOrderWei: null, dailyCapWei: null })
    }
  })

  it('idempotency_conflict 409', async () => {
    const key = `conflict-${fresh()}`
    await intake({ request: await stocked([{ serial: fresh() }]), idempotencyKey: key })
    const request = await stocked([{ serial: fresh() }])
    expect(await refusal({ request, idempotencyKey: key })).toMatchObject({
      code: 'idempotency_conflict',
      status: 409,
    })
  })
})
