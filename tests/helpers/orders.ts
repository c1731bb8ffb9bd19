import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Address } from 'viem'
import type { Db } from '@/db/client'
import { mintOrders, users } from '@/db/schema'
import { addJob } from '@/lib/jobs/addJob'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import { computeFineOz } from '@/lib/mint/computeFineOz'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { insertOrderBars } from '@/lib/vault/testing/insertOrderBars'

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
 * Orders as the intake makes them, without its validation and bar lists: a pending
 * mint_orders row, one bar reserved by it whose fine weight is the order's amount
 * (lib/vault/testing/insertOrderBars: never on a bar list), and its mint_send job (key
 * mint_send:<orderId>, payload { orderId }), added in the same transaction (the outbox).
 * For worker tests only.
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
      await insertOrderBars(tx, { orderId: id, vault: 'TEST-VAULT', orderStatus: 'pending', bars: [barOf(amountWei)] })
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

/** One bar of fineness 999.99 whose fine weight (gross x fineness / 1000, rounded down) is exactly `amountWei`. */
function barOf(amountWei: bigint) {
  if (amountWei % 10n ** 15n !== 0n) throw new Error(`a test order's amount must be whole milli-ounces: ${amountWei}`)
  const fine = amountWei / 10n ** 15n
  const fineness = 99_999n
  let gross = fine
  while (computeFineOz({ grossMilliOz: gross, finenessHundredths: fineness }) < fine) gross++
  const milli = (v: bigint) => formatDecimal(v, { decimals: 3, minFraction: 3 })
  return { grossOz: milli(gross), fineness: '999.99', fineOz: milli(fine) }
}
