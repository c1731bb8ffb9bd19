import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Address } from 'viem'
import type { Db } from '@/db/client'
import { mintOrders, users } from '@/db/schema'
import { addJob } from '@/lib/jobs/addJob'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'

export type TestOrder = { id: string; toAddress: Address; amountWei: bigint; jobId: bigint }

export type CreateTestOrdersParameters = {
  count: number
  /** recipients, used round-robin */
  to: readonly Address[]
  /** wei per order; by default 1 + i/1000 ounces so every order differs */
  amountWei?: (i: number) => bigint
  /** the mint_send job's attempts (the intake uses 5) */
  maxAttempts?: number
}

/**
 * Orders as the intake makes them, without its validation and vault bars: a pending
 * mint_orders row and its mint_send job (key mint_send:<orderId>, payload { orderId }),
 * added in the same transaction (the outbox). For worker tests only.
 */
export async function createTestOrders(db: Db, p: CreateTestOrdersParameters): Promise<TestOrder[]> {
  const requestedBy = await ensureTestUser(db)
  const orders: TestOrder[] = []
  for (let i = 0; i < p.count; i++) {
    const id = randomUUID()
    const toAddress = p.to[i % p.to.length]
    const amountWei = p.amountWei?.(i) ?? 10n ** 18n + BigInt(i) * 10n ** 15n
    const { jobId } = await db.transaction(async (tx) => {
      await tx.insert(mintOrders).values({
        id,
        toAddress,
        amountWei: amountWei.toString(),
        vault: 'TEST-VAULT',
        receiptRef: `TEST-${id.slice(0, 8)}`,
        documentSha256: '0'.repeat(64),
        requestedBy,
      })
      const added = await addJob(tx, {
        task: TASK.mintSend,
        payload: { orderId: id },
        jobKey: mintSendJobKey(id),
        maxAttempts: p.maxAttempts ?? 5,
        orderId: id,
        actor: 'test',
      })
      await tx.update(mintOrders).set({ jobId: added.jobId }).where(eq(mintOrders.id, id))
      return added
    })
    orders.push({ id, toAddress, amountWei, jobId })
  }
  return orders
}

async function ensureTestUser(db: Db): Promise<string> {
  const email = 'worker-tests@mintdesk.test'
  await db.insert(users).values({ email, name: 'Worker tests', role: 'staff' }).onConflictDoNothing()
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email))
  if (!row) throw new Error('test user missing')
  return row.id
}
