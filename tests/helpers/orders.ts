import { randomBytes, randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Address } from 'viem'
import type { Db, DbOrTx } from '@/db/client'
import { type MintStatus, mintOrders } from '@/db/schema/mint'
import { users } from '@/db/schema/users'
import type { QueueTransport } from '@/lib/jobs/addJob'
import { addJob } from '@/lib/jobs/addJob'
import { mintSendJobKey, TASK } from '@/lib/jobs/jobKeys'
import { computeFineOz } from '@/lib/mint/computeFineOz'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { enqueueMintSend } from '@/lib/web/queue/enqueueMintSend'
import { insertSignedBarList, signOrderApprovals } from '@/tests/helpers/approvals'
import { insertOrderBars } from '@/tests/helpers/insertOrderBars'
import { allowRecipients } from '@/tests/helpers/recipients'

// TEST ONLY: THE order factory of the tests. insertOrder writes one order row (with new
// vault bars, or none); createTestOrders adds the mint_send job of each, as the intake does.

export type InsertOrderParameters = {
  requestedBy: string
  /** a chosen id; a fresh uuid by default */
  id?: string
  status?: MintStatus
  to?: string
  /** fine ounces per bar, 3 decimals, each a new vault bar ('401.084' by default); [] for an order without bars */
  barsFineOz?: string[]
  /** the amount in wei; by default the bars' total fine weight */
  amountWei?: bigint
  vault?: string
  receiptRef?: string
  documentSha256?: string
  failureReason?: string | null
}

export type InsertOrderReturnType = { id: string; to: string; amountWei: bigint }

/**
 * An order backed by new vault bars held as its status says (tests/helpers/insertOrderBars; amount = sum of the bars'
 * fine weight unless given).
 */
export async function insertOrder(db: DbOrTx, p: InsertOrderParameters): Promise<InsertOrderReturnType> {
  const to = p.to ?? '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  const bars = p.barsFineOz ?? ['401.084']
  const amountWei = p.amountWei ?? bars.reduce((s, b) => s + BigInt(b.replace('.', '')), 0n) * 10n ** 15n
  const [order] = await db
    .insert(mintOrders)
    .values({
      ...(p.id === undefined ? {} : { id: p.id }),
      toAddress: to,
      amountWei: amountWei.toString(),
      status: p.status ?? 'pending',
      vault: p.vault ?? 'LDN-1',
      receiptRef: p.receiptRef ?? `VR-${randomBytes(3).toString('hex')}`,
      documentSha256: p.documentSha256 ?? randomBytes(32).toString('hex'),
      requestedBy: p.requestedBy,
      failureReason: p.failureReason ?? null,
    })
    .returning({ id: mintOrders.id })
  if (!order) throw new Error('no order')
  if (bars.length > 0) {
    await insertOrderBars(db, {
      orderId: order.id,
      vault: p.vault ?? 'LDN-1',
      orderStatus: p.status ?? 'pending',
      bars: bars.map((fine) => ({ grossOz: fine, fineness: '999.90', fineOz: fine })),
    })
  }
  return { id: order.id, to, amountWei }
}

export type TestOrder = { id: string; toAddress: Address; amountWei: bigint; jobId: bigint }

export type CreateTestOrdersParameters = {
  count: number
  /** recipients, used round-robin */
  to: readonly Address[]
  /** wei per order; by default 1 + i/1000 ounces so every order differs */
  amountWei?: (i: number) => bigint
  /** the mint_send job's attempts (the intake uses 5) */
  maxAttempts?: number
  /** what carries mint_send: a graphile-worker job (default), or the SQS outbox row (lib/web/queue/enqueueMintSend) */
  transport?: QueueTransport
  /** the orders' vault; a fresh one by default (its one bar list holds exactly these orders' bars) */
  vault?: string
}

/**
 * Orders as the intake makes them and approvers sign them, without its validation: a
 * pending mint_orders row, one bar reserved by it whose fine weight is the order's amount
 * (tests/helpers/insertOrderBars), the bars of the call on one bar list of a fresh vault
 * (`TEST-VAULT-<random>`, or `vault`) signed by the dev custodian, the dev approvers'
 * signatures of each order's MintIntent (tests/helpers/approvals.ts: 1 below 10,000 oz,
 * 2 at or above), then each order's mint_send job (key mint_send:<orderId>, payload
 * { orderId }). For worker tests on the test chain (tests/fixtures/chain.ts).
 */
export async function createTestOrders(db: Db, p: CreateTestOrdersParameters): Promise<TestOrder[]> {
  const requestedBy = await ensureTestUser(db)
  // as an admin would have: the worker's check before signing refuses a recipient off the allowlist
  await allowRecipients(db, p.to)
  const vault = p.vault ?? `TEST-VAULT-${randomBytes(4).toString('hex').toUpperCase()}`
  const made: { id: string; toAddress: Address; amountWei: bigint }[] = []
  const barIds: string[] = []
  for (let i = 0; i < p.count; i++) {
    const id = randomUUID()
    const toAddress = p.to[i % p.to.length]
    const amountWei = p.amountWei?.(i) ?? 10n ** 18n + BigInt(i) * 10n ** 15n
    await db.transaction(async (tx) => {
      await insertOrder(tx, {
        id,
        requestedBy,
        to: toAddress,
        amountWei,
        barsFineOz: [],
        vault,
        receiptRef: `TEST-${id.slice(0, 8)}`,
        documentSha256: '0'.repeat(64),
      })
      barIds.push(
        ...(await insertOrderBars(tx, { orderId: id, vault, orderStatus: 'pending', bars: [barOf(amountWei)] })),
      )
    })
    made.push({ id, toAddress, amountWei })
  }
  if (made.length === 0) return []
  await insertSignedBarList(db, { vault, barIds })
  for (const order of made) await signOrderApprovals(db, { orderId: order.id })

  const orders: TestOrder[] = []
  for (const { id, toAddress, amountWei } of made) {
    const { jobId } = await db.transaction(async (tx) => {
      if (p.transport === 'sqs') {
        const sent = await enqueueMintSend(tx, {
          transport: 'sqs',
          orderId: id,
          maxAttempts: p.maxAttempts ?? 5,
          actor: 'test',
        })
        await tx.update(mintOrders).set({ jobId: sent.jobId }).where(eq(mintOrders.id, id))
        return sent
      }
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
