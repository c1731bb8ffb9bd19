import { eq, sql } from 'drizzle-orm'
import postgres from 'postgres'
import { describe, expect, it } from 'vitest'
import { mintOrders } from '@/db/schema'
import type { TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { setUpTestDatabaseWithUsers } from '@/tests/helpers/setUpTestDatabaseWithUsers'
import type { TestUsers } from '@/tests/helpers/users'

// db/functions/mint_orders_vault_fixed.sql: an order's vault never changes once written (the send batch reads it before
// the order's lock and locks the vault it read: worker/mint/reserveSendBatch.ts). The database
// refuses the change, as the owner and as the worker's own role; the order's other columns
// still change as before.
describe("an order's vault is fixed", () => {
  let t: TestDatabase
  let u: TestUsers
  setUpTestDatabaseWithUsers((db) => ({ t, u } = db))

  const vaultOf = async (id: string) =>
    (await t.db.select({ vault: mintOrders.vault }).from(mintOrders).where(eq(mintOrders.id, id)))[0]?.vault

  it('an update of the vault is refused (check_violation), whoever asks; nothing changes', async () => {
    const order = await insertOrder(t.db, { requestedBy: u.staff.id })
    const before = await vaultOf(order.id)
    await expect(
      t.db.execute(sql`update mint_orders set vault = 'ELSEWHERE-1' where id = ${order.id}::uuid`),
    ).rejects.toMatchObject({
      cause: expect.objectContaining({
        code: '23514',
        message: expect.stringMatching(/the vault of mint order .* cannot change/),
      }),
    })
    const worker = postgres(t.roleUrl('worker'), { max: 1, onnotice: () => {} })
    try {
      await expect(
        worker`update mint_orders set vault = 'ELSEWHERE-2' where id = ${order.id}::uuid`,
      ).rejects.toMatchObject({ code: '23514' })
    } finally {
      await worker.end()
    }
    expect(await vaultOf(order.id)).toBe(before)
  })

  it('the same vault written again, and the other columns, change as before', async () => {
    const order = await insertOrder(t.db, { requestedBy: u.staff.id })
    const vault = await vaultOf(order.id)
    await t.db
      .update(mintOrders)
      .set({ vault: vault ?? '', status: 'submitted' })
      .where(eq(mintOrders.id, order.id))
    expect(
      (await t.db.select({ status: mintOrders.status }).from(mintOrders).where(eq(mintOrders.id, order.id)))[0]?.status,
    ).toBe('submitted')
  })
})
