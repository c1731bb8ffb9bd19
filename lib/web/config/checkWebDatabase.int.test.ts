import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb } from '@/db/client'
import { checkSharedSettings } from '@/lib/config/checkSharedSettings'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { checkWebDatabase } from './checkWebDatabase'

// The web's start check in its database (instrumentation-node.ts exits on a refusal), as
// mintdesk_web against a real Postgres.
describe('checkWebDatabase', () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase()
  })
  afterAll(async () => {
    await t?.drop()
  })
  const MINTER_A = `0x${'aa'.repeat(20)}` as const
  const MINTER_B = `0x${'bb'.repeat(20)}` as const
  const web = (minterAddress: `0x${string}`, databaseUrl = t.roleUrl('web')) =>
    checkWebDatabase({ production: true, databaseUrl, minterAddress })

  it("starts when the role holds its grants and its minter is the worker's; refuses another, naming MINTER_ADDRESS", async () => {
    expect(await web(MINTER_A)).toEqual({ ok: true })
    const worker = createDb({ url: t.roleUrl('worker'), max: 1 })
    try {
      expect(await checkSharedSettings(worker.db, { role: 'worker', minterAddress: MINTER_A })).toEqual({
        ok: true,
      })
    } finally {
      await worker.close()
    }
    expect(await web(MINTER_A)).toEqual({ ok: true })
    const refused = await web(MINTER_B)
    expect(refused.ok).toBe(false)
    expect(refused.ok ? '' : refused.message).toMatch(
      /MINTER_ADDRESS is 0xb{40} in this web, but the worker started with "0xa{40}"/,
    )
  })

  it('a privilege beyond the web line refuses it, naming DATABASE_URL', async () => {
    await t.sql.unsafe('grant insert on chain_txs to mintdesk_web')
    try {
      const refused = await web(MINTER_A)
      expect(refused.ok ? '' : refused.message).toMatch(/DATABASE_URL: .*mintdesk_web .*INSERT on chain_txs/)
    } finally {
      await t.sql.unsafe('revoke insert on chain_txs from mintdesk_web')
    }
  })

  it('a database it cannot ask refuses it too, without the password; outside production nothing is asked', async () => {
    const unreachable = 'postgres://mintdesk_web:s3cret-pw@127.0.0.1:1/mintdesk'
    const refused = await web(MINTER_A, unreachable)
    expect(refused.ok).toBe(false)
    expect(refused.ok ? '' : refused.message).toMatch(/^the database could not be checked/)
    expect(refused.ok ? '' : refused.message).not.toContain('s3cret-pw')
    expect(await checkWebDatabase({ production: false, databaseUrl: unreachable, minterAddress: MINTER_A })).toEqual({
      ok: true,
    })
  })
})
