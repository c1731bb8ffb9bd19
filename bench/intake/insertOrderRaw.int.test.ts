import postgres from 'postgres'
import { describe, expect, it } from 'vitest'
import type { TestDatabase } from '@/tests/helpers/db'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import { intakeSession, type TestUsers } from '@/tests/helpers/users'
import { createMintBodies, stockMintBodies } from './createMintBodies'
import { insertOrderRaw } from './insertOrderRaw'

// The bench's own plumbing: its bodies' bars are on bar lists, and the raw-SQL intake
// reserves them as the real intake does (no bar twice).

let t: TestDatabase
let u: TestUsers

setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

describe('bench bodies and the raw-SQL intake', () => {
  it("stocks the bodies' bars, reserves each body's bars once, and refuses a body twice", async () => {
    const bodies = createMintBodies({
      runId: 'T1',
      recipients: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
      capacity: 5,
    })
    await stockMintBodies(t.sql, bodies)
    const first = bodies.next()
    // a plain postgres.js client, as runRawSqlIntake's (its default json serializer), with named statements
    const raw = postgres(t.url, { max: 1, onnotice: () => {} })
    try {
      await insertOrderRaw(raw, { request: first.request, user: intakeSession(u.staff), prepare: true })
    } finally {
      await raw.end({ timeout: 5 })
    }
    const [row] = await t.sql<
      { reserved: number }[]
    >`select count(*)::int as reserved from vault_bars where status = 'reserved'`
    expect(row?.reserved).toBe(2)
    await expect(
      insertOrderRaw(t.sql, { request: first.request, user: intakeSession(u.staff), prepare: false }),
    ).rejects.toThrow('bar_already_used')
    for (let i = 1; i < 5; i++) bodies.next()
    expect(() => bodies.next()).toThrow('out of bench bars')
  })
})
