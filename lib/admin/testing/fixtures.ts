import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs, mintOrders, signerNonces, signers, users } from '@/db/schema'
import type { MintStatus } from '@/db/schema/mint'
import { addJob } from '@/lib/jobs/addJob'
import { insertOrderBars } from '@/lib/vault/testing/insertOrderBars'

/**
 * Test fixtures for the admin integration tests: real rows in a real database (no
 * mocks), with graphile-worker's job rows put into each state the way a worker would.
 */

export async function insertUser(db: DbOrTx, role: 'staff' | 'admin' = 'staff'): Promise<{ id: string; email: string }> {
  const email = `${role}-${randomBytes(4).toString('hex')}@mintdesk.test`
  const [row] = await db.insert(users).values({ email, name: email, role }).returning({ id: users.id })
  if (!row) throw new Error('no user')
  return { id: row.id, email }
}

export type InsertOrderParameters = {
  requestedBy: string
  status?: MintStatus
  to?: string
  /** fine ounces per bar, 3 decimals */
  barsFineOz?: string[]
  failureReason?: string | null
}

/** An order backed by new vault bars (amount = sum of the bars' fine weight), held as its status says (lib/vault/testing/insertOrderBars). */
export async function insertOrder(db: DbOrTx, p: InsertOrderParameters): Promise<{ id: string; to: string }> {
  const to = p.to ?? '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  const bars = p.barsFineOz ?? ['401.084']
  const amountMilli = bars.reduce((s, b) => s + BigInt(b.replace('.', '')), 0n)
  const [order] = await db
    .insert(mintOrders)
    .values({
      toAddress: to,
      amountWei: (amountMilli * 10n ** 15n).toString(),
      status: p.status ?? 'pending',
      vault: 'LDN-1',
      receiptRef: `VR-${randomBytes(3).toString('hex')}`,
      documentSha256: randomBytes(32).toString('hex'),
      requestedBy: p.requestedBy,
      failureReason: p.failureReason ?? null,
    })
    .returning({ id: mintOrders.id })
  if (!order) throw new Error('no order')
  await insertOrderBars(db, {
    orderId: order.id,
    vault: 'LDN-1',
    orderStatus: p.status ?? 'pending',
    bars: bars.map((fine) => ({ grossOz: fine, fineness: '999.90', fineOz: fine })),
  })
  return { id: order.id, to }
}

/** A mint job for an order, through the real addJob (graphile-worker row + job_records + 'enqueued'). */
export async function addMintJob(
  db: DbOrTx,
  p: { orderId: string; task?: 'mint_send' | 'mint_confirm'; maxAttempts?: number; runAt?: Date },
): Promise<bigint> {
  const task = p.task ?? 'mint_send'
  const { jobId } = await addJob(db, {
    task,
    payload: { orderId: p.orderId },
    jobKey: `${task}:${p.orderId}`,
    orderId: p.orderId,
    maxAttempts: p.maxAttempts ?? 5,
    runAt: p.runAt,
  })
  return jobId
}

export async function addPlainJob(db: DbOrTx, p: { task: string; maxAttempts?: number; runAt?: Date }): Promise<bigint> {
  const { jobId } = await addJob(db, { task: p.task, payload: {}, maxAttempts: p.maxAttempts ?? 5, runAt: p.runAt })
  return jobId
}

/** Puts a live job in a state the way graphile-worker and the worker would leave it. */
export async function setJobState(
  db: DbOrTx,
  jobId: bigint,
  state: 'queued' | 'scheduled' | 'running' | 'retrying' | 'dead',
  opts: { error?: string; workerId?: string; attempts?: number } = {},
): Promise<void> {
  const id = jobId.toString()
  const error = opts.error ?? 'Error: boom'
  switch (state) {
    case 'queued':
      await db.execute(sql`update graphile_worker._private_jobs set attempts = 0, last_error = null, locked_at = null, locked_by = null, run_at = now() where id = ${id}::bigint`)
      break
    case 'scheduled':
      await db.execute(sql`update graphile_worker._private_jobs set run_at = now() + interval '1 hour' where id = ${id}::bigint`)
      break
    case 'running':
      await db.execute(sql`update graphile_worker._private_jobs set attempts = attempts + 1, locked_at = now(), locked_by = ${opts.workerId ?? 'worker-1'} where id = ${id}::bigint`)
      await db.execute(sql`update job_records set state = 'running' where job_id = ${id}::bigint`)
      break
    case 'retrying':
      await db.execute(sql`update graphile_worker._private_jobs set attempts = ${opts.attempts ?? 1}, last_error = ${error}, run_at = now() + interval '30 seconds', locked_at = null, locked_by = null where id = ${id}::bigint`)
      await db.execute(sql`update job_records set state = 'retrying', attempts = ${opts.attempts ?? 1}, last_error = ${error} where job_id = ${id}::bigint`)
      break
    case 'dead':
      await db.execute(sql`update graphile_worker._private_jobs set attempts = max_attempts, last_error = ${error}, locked_at = null, locked_by = null where id = ${id}::bigint`)
      await db.execute(sql`update job_records set state = 'dead', attempts = max_attempts, last_error = ${error} where job_id = ${id}::bigint`)
      break
  }
}

/** A job that completed: graphile-worker deleted it, the history says done. */
export async function completeJob(db: DbOrTx, jobId: bigint): Promise<void> {
  const id = jobId.toString()
  await db.execute(sql`delete from graphile_worker._private_jobs where id = ${id}::bigint`)
  await db.execute(sql`update job_records set state = 'done', finished_at = now() where job_id = ${id}::bigint`)
}

export async function insertSigner(db: DbOrTx, p: { address?: string; nextNonce?: bigint } = {}): Promise<string> {
  const address = p.address ?? `0x${randomBytes(20).toString('hex')}`
  await db.insert(signers).values({ address, kmsKeyId: randomUUID(), chainId: 31337, nextNonce: p.nextNonce ?? 0n })
  return address
}

/** Binds a nonce to an order, and optionally a signed (stored) transaction, as mint_send does. */
export async function reserveNonce(
  db: DbOrTx,
  p: { signer: string; nonce: bigint; orderId: string; signed?: boolean; minedBlock?: bigint },
): Promise<string | null> {
  await db.insert(signerNonces).values({
    signerAddress: p.signer,
    nonce: p.nonce,
    use: 'mint',
    orderId: p.orderId,
    state: p.minedBlock !== undefined ? 'mined' : p.signed ? 'signed' : 'reserved',
  })
  await db.update(mintOrders).set({ signerAddress: p.signer, nonce: p.nonce }).where(sql`id = ${p.orderId}`)
  if (!p.signed && p.minedBlock === undefined) return null
  const hash = `0x${randomBytes(32).toString('hex')}`
  await db.insert(chainTxs).values({
    hash,
    signerAddress: p.signer,
    nonce: p.nonce,
    orderId: p.orderId,
    kind: 'mint',
    rawTx: '0x02',
    maxFeePerGas: '2000000000',
    maxPriorityFeePerGas: '1000000000',
    gasLimit: '120000',
    broadcastAt: new Date(),
    minedBlock: p.minedBlock ?? null,
  })
  return hash
}
