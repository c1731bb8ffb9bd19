import type postgres from 'postgres'
import { type Address, getAddress, type PublicClient } from 'viem'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { bytes32ToOrderId } from '@/lib/mint/orderIdToBytes32'

/**
 * The invariants of docs/architecture.md, read from Postgres and from the chain itself once
 * the system is quiet. No test framework here: the short form (vitest) and the long form
 * (scripts/test-chaos.ts) both call it and fail on `problems`.
 *
 * - every order is settled: `confirmed`, or `failed` with a reason and its mint_send a
 *   dead letter (kept with its last error), or `cancelled`; nothing pending or submitted;
 * - exactly one `Minted` event per confirmed order (to its recipient, its amount), none for
 *   any other order, and each one emitted by a transaction mintdesk stored for that order;
 * - every redemption is settled (burned, failed with a reason, rejected or cancelled), exactly one `Burned` event per
 *   burned one (its amount, from a transaction stored for it), none for every other;
 * - total supply = the sum of the confirmed orders less the sum of the burned redemptions;
 * - no bar is backing while a burned redemption holds it;
 * - per signer: `signer_nonces` contiguous, every nonce mined, chain nonce (latest and
 *   pending) = `signers.next_nonce`;
 * - no job locked by a worker that is not alive; every dead job keeps its error;
 * - the running total of the backing bars equals their recount (docs/decisions/024-backing-running-total.md).
 */

export type CheckInvariantsParameters = {
  sql: postgres.Sql
  chain: PublicClient
  tokenAddress: Address
  /** the orders the test created (ids); every mint_orders row is checked either way */
  expectedOrderIds?: readonly string[]
  /** graphile-worker pool ids of the workers alive now; locks by anyone else are a problem */
  liveWorkerIds: ReadonlySet<string>
}

export type SignerReport = {
  address: string
  nextNonce: bigint
  chainLatest: bigint
  chainPending: bigint
  nonces: number
  gaps: bigint[]
  unmined: string[]
}

export type InvariantReport = {
  orders: number
  confirmed: number
  failed: number
  cancelled: number
  /** orders neither confirmed nor failed-with-a-reason nor cancelled */
  lost: string[]
  /** orders with more than one Minted event */
  doubled: string[]
  mintedEvents: number
  /** redemptions burned, and the Burned events on chain */
  burned: number
  burnedEvents: number
  supply: bigint
  confirmedSum: bigint
  /** the sum of the burned redemptions */
  burnedSum: bigint
  signers: SignerReport[]
  deadJobs: number
  lockedJobs: { id: string; task: string; lockedBy: string }[]
  /** every broken rule, one sentence each; empty when all hold */
  problems: string[]
}

type OrderRow = {
  id: string
  status: string
  amount_wei: string
  to_address: string
  failure_reason: string | null
  tx_hash: string | null
}

export async function checkInvariants(p: CheckInvariantsParameters): Promise<InvariantReport> {
  const { sql } = p
  const problems: string[] = []

  const orders = await sql<
    OrderRow[]
  >`select id, status, amount_wei, to_address, failure_reason, tx_hash from mint_orders`
  const byId = new Map(orders.map((o) => [o.id, o]))
  for (const id of p.expectedOrderIds ?? [])
    if (!byId.has(id)) problems.push(`order ${id} was accepted (202) but has no row`)

  const storedTxs = await sql<
    { hash: string; order_id: string | null; redemption_id: string | null }[]
  >`select hash, order_id, redemption_id from chain_txs`
  const txOrder = new Map(storedTxs.map((t) => [t.hash.toLowerCase(), t.order_id]))
  const txRedemption = new Map(storedTxs.map((t) => [t.hash.toLowerCase(), t.redemption_id]))

  // graphile-worker's live table: dead letters and locks
  const live = await sql<
    {
      id: string
      task: string
      attempts: number
      max_attempts: number
      last_error: string | null
      locked_by: string | null
      order_id: string | null
    }[]
  >`
    select j.id::text as id, t.identifier as task, j.attempts, j.max_attempts, j.last_error, j.locked_by,
           j.payload->>'orderId' as order_id
    from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id`
  const dead = live.filter((j) => j.locked_by === null && j.attempts >= j.max_attempts)
  for (const j of dead) if (!j.last_error) problems.push(`dead job ${j.id} (${j.task}) has no error`)
  const deadSendOf = new Set(dead.filter((j) => j.task === 'mint_send' && j.order_id).map((j) => j.order_id as string))
  // QUEUE_TRANSPORT=sqs: a dead mint_send is an SQS job (sqs_outbox)
  // dead in its history, with its error, its message bound for the DLQ
  const sqsDead = await sql<{ order_id: string; last_error: string | null; job_id: string }[]>`
    select r.order_id::text as order_id, r.last_error, r.job_id::text as job_id
    from job_records r join sqs_outbox x on x.job_id = r.job_id where r.state = 'dead'`
  for (const j of sqsDead) {
    if (!j.last_error) problems.push(`dead SQS job ${j.job_id} (mint_send) has no error`)
    deadSendOf.add(j.order_id)
  }
  const lockedJobs = live
    .filter((j) => j.locked_by !== null)
    .map((j) => ({ id: j.id, task: j.task, lockedBy: j.locked_by as string }))
  for (const j of lockedJobs) {
    if (!p.liveWorkerIds.has(j.lockedBy))
      problems.push(`job ${j.id} (${j.task}) is locked by ${j.lockedBy}, which is not a live worker`)
  }

  // the running total of the backing bars that the check before each signature reads = their recount
  const [backing] = await p.sql<{ running: string; recount: string; equal: boolean }[]>`
    with t as (select (select coalesce(sum(fine_oz), 0) from vault_backing_deltas) as running,
           (select coalesce(sum(fine_oz), 0) from vault_bars where status = 'backing') as recount)
    select running::text as running, recount::text as recount, running = recount as equal from t`
  if (backing && backing.equal === false)
    problems.push(`the running backing total is ${backing.running} oz, the backing bars' recount ${backing.recount} oz`)

  // the chain's view
  const logs = await p.chain.getContractEvents({
    address: p.tokenAddress,
    abi: goldTokenAbi,
    eventName: 'Minted',
    fromBlock: 0n,
    toBlock: 'latest',
  })
  const mintedBy = new Map<string, typeof logs>()
  for (const log of logs) {
    const orderId = bytes32ToOrderId(log.args.orderId as `0x${string}`)
    mintedBy.set(orderId, [...(mintedBy.get(orderId) ?? []), log])
  }
  const doubled = [...mintedBy.entries()].filter(([, l]) => l.length > 1).map(([id]) => id)
  for (const id of doubled) problems.push(`order ${id} was minted ${mintedBy.get(id)?.length} times`)

  const lost: string[] = []
  let confirmed = 0
  let failed = 0
  let cancelled = 0
  let confirmedSum = 0n
  for (const o of orders) {
    const minted = mintedBy.get(o.id) ?? []
    if (o.status === 'confirmed') {
      confirmed++
      confirmedSum += BigInt(o.amount_wei)
      if (minted.length === 0) {
        lost.push(o.id)
        problems.push(`order ${o.id} is confirmed but no Minted event exists for it on chain`)
        continue
      }
      const [log] = minted
      if (log.args.amount !== BigInt(o.amount_wei))
        problems.push(`order ${o.id}: minted ${log.args.amount} wei, ordered ${o.amount_wei}`)
      if (log.args.to?.toLowerCase() !== o.to_address.toLowerCase())
        problems.push(`order ${o.id}: minted to ${log.args.to}, ordered to ${o.to_address}`)
      const signedFor = txOrder.get(log.transactionHash.toLowerCase())
      if (signedFor !== o.id)
        problems.push(
          `order ${o.id}: its Minted event comes from ${log.transactionHash}, not a transaction stored for it`,
        )
      if (!o.tx_hash || txOrder.get(o.tx_hash.toLowerCase()) !== o.id)
        problems.push(`order ${o.id}: tx_hash ${o.tx_hash} is not one of its stored transactions`)
    } else if (o.status === 'failed') {
      failed++
      if (!o.failure_reason) problems.push(`order ${o.id} failed without a reason`)
      if (!deadSendOf.has(o.id)) problems.push(`order ${o.id} failed but its mint_send is not in the dead letters`)
      if (minted.length > 0) problems.push(`order ${o.id} is failed yet minted on chain`)
      if (!o.failure_reason) lost.push(o.id)
    } else if (o.status === 'cancelled') {
      cancelled++
      if (minted.length > 0) problems.push(`order ${o.id} is cancelled yet minted on chain`)
    } else {
      lost.push(o.id)
      problems.push(`order ${o.id} is still ${o.status}`)
    }
  }
  for (const id of mintedBy.keys()) if (!byId.has(id)) problems.push(`Minted event for ${id}, which is not an order`)

  const burns = await checkBurns(p, { txOperation: txRedemption })
  problems.push(...burns.problems)
  const supply = await p.chain.readContract({ address: p.tokenAddress, abi: goldTokenAbi, functionName: 'totalSupply' })
  if (supply !== confirmedSum - burns.burnedSum)
    problems.push(
      `total supply ${supply} != confirmed orders ${confirmedSum} less burned redemptions ${burns.burnedSum}`,
    )

  const signerRows = await sql<
    { address: string; next_nonce: bigint | string }[]
  >`select address, next_nonce from signers order by address`
  const signers: SignerReport[] = []
  for (const s of signerRows) {
    const address = getAddress(s.address)
    const nextNonce = BigInt(s.next_nonce)
    const [latest, pending] = await Promise.all([
      p.chain.getTransactionCount({ address, blockTag: 'latest' }),
      p.chain.getTransactionCount({ address, blockTag: 'pending' }),
    ])
    const rows = await sql<{ nonce: bigint | string; state: string }[]>`
      select nonce, state from signer_nonces where signer_address = ${s.address} order by nonce`
    const nonces = rows.map((r) => BigInt(r.nonce))
    const first = nonces[0] ?? nextNonce
    const gaps: bigint[] = []
    const have = new Set(nonces)
    for (let n = first; n < nextNonce; n++) if (!have.has(n)) gaps.push(n)
    const unmined = rows.filter((r) => r.state !== 'mined').map((r) => `${r.nonce}:${r.state}`)
    const report: SignerReport = {
      address,
      nextNonce,
      chainLatest: BigInt(latest),
      chainPending: BigInt(pending),
      nonces: rows.length,
      gaps,
      unmined,
    }
    signers.push(report)
    if (gaps.length > 0)
      problems.push(`signer ${address}: nonces missing from signer_nonces: ${gaps.slice(0, 10).join(', ')}`)
    if (nonces.some((n) => n >= nextNonce))
      problems.push(`signer ${address}: signer_nonces beyond next_nonce ${nextNonce}`)
    if (unmined.length > 0) problems.push(`signer ${address}: nonces not mined: ${unmined.slice(0, 10).join(', ')}`)
    if (report.chainLatest !== nextNonce)
      problems.push(`signer ${address}: chain nonce ${report.chainLatest} != next_nonce ${nextNonce}`)
    if (report.chainPending !== report.chainLatest)
      problems.push(
        `signer ${address}: ${report.chainPending - report.chainLatest} transaction(s) still in the node's pool`,
      )
  }

  return {
    orders: orders.length,
    confirmed,
    failed,
    cancelled,
    lost,
    doubled,
    mintedEvents: logs.length,
    burned: burns.burned,
    burnedEvents: burns.events,
    supply,
    confirmedSum,
    burnedSum: burns.burnedSum,
    signers,
    deadJobs: dead.length,
    lockedJobs,
    problems,
  }
}

/**
 * The redemptions against the chain's Burned events: each burned one burned once, by a transaction stored for it,
 * of its amount; none other burned; none left in flight; none of its bars still backing.
 */
async function checkBurns(
  p: CheckInvariantsParameters,
  { txOperation }: { txOperation: ReadonlyMap<string, string | null> },
): Promise<{ burned: number; events: number; burnedSum: bigint; problems: string[] }> {
  const problems: string[] = []
  const rows = await p.sql<{ id: string; status: string; amount_wei: string; failure_reason: string | null }[]>`
    select id, status, amount_wei, failure_reason from redemptions`
  const logs = await p.chain.getContractEvents({
    address: p.tokenAddress,
    abi: goldTokenAbi,
    eventName: 'Burned',
    fromBlock: 0n,
    toBlock: 'latest',
  })
  const burnedBy = new Map<string, typeof logs>()
  for (const log of logs) {
    const id = bytes32ToOrderId(log.args.redemptionId as `0x${string}`)
    burnedBy.set(id, [...(burnedBy.get(id) ?? []), log])
  }
  let burned = 0
  let burnedSum = 0n
  for (const r of rows) {
    const events = burnedBy.get(r.id) ?? []
    if (r.status === 'burned') {
      burned++
      burnedSum += BigInt(r.amount_wei)
      if (events.length !== 1) problems.push(`redemption ${r.id} is burned with ${events.length} Burned events`)
      const [log] = events
      if (log && log.args.amount !== BigInt(r.amount_wei))
        problems.push(`redemption ${r.id}: burned ${log.args.amount} wei, its amount is ${r.amount_wei}`)
      if (log && txOperation.get(log.transactionHash.toLowerCase()) !== r.id)
        problems.push(`redemption ${r.id}: its Burned event comes from ${log.transactionHash}, not a transaction of it`)
    } else {
      if (events.length > 0) problems.push(`redemption ${r.id} is ${r.status} yet burned on chain`)
      if (r.status === 'failed' && !r.failure_reason) problems.push(`redemption ${r.id} failed without a reason`)
      if (!['failed', 'rejected', 'cancelled', 'awaiting_approval'].includes(r.status))
        problems.push(`redemption ${r.id} is still ${r.status}`)
    }
  }
  const known = new Set(rows.map((r) => r.id))
  for (const id of burnedBy.keys()) if (!known.has(id)) problems.push(`Burned event for ${id}, which is no redemption`)
  const [stillBacking] = await p.sql<{ n: number }[]>`
    select count(*)::int as n from vault_bars b join redemptions r on r.id = b.redemption_id
    where r.status = 'burned' and b.status = 'backing'`
  if (stillBacking && stillBacking.n > 0)
    problems.push(`${stillBacking.n} bars of burned redemptions are still backing`)
  return { burned, events: logs.length, burnedSum, problems }
}

/** One line for logs and the reliability report. */
export function summarizeReport(r: InvariantReport): string {
  return `${r.orders} orders: ${r.confirmed} confirmed, ${r.failed} failed, ${r.cancelled} cancelled; ${r.mintedEvents} Minted events; ${r.burned} redemptions burned (${r.burnedEvents} Burned events); lost ${r.lost.length}, doubled ${r.doubled.length}; supply ${r.supply} (confirmed sum ${r.confirmedSum}); ${r.signers.map((s) => `signer ${s.address.slice(0, 8)} next ${s.nextNonce} chain ${s.chainLatest}`).join(', ')}; ${r.lockedJobs.length} locked, ${r.deadJobs} dead jobs`
}
