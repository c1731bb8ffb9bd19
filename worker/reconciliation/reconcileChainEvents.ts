import { sql } from 'drizzle-orm'
import { type Address, getAddress, type Hex, isAddressEqual } from 'viem'
import type { Tx } from '@/db/client'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import { bytes32ToOrderId } from '@/lib/mint/orderIdToBytes32'
import { confirmOrderFromChain } from '../db/confirmOrderFromChain'
import { readCursorStart } from '../db/readCursorStart'
import { recordUnreconciledEvent, type UnreconciledEventIn } from '../db/recordUnreconciledEvent'
import type { WorkerContext } from '../runtime/context'

export type ReconcileChainEventsParameters = { actor: string; jobId?: bigint | null }

export type ReconcileChainEventsReturnType = {
  fromBlock: bigint
  toBlock: bigint
  /** orders found minted on chain that the database did not show confirmed, now confirmed */
  confirmed: string[]
  /** events newly listed as unreconciled */
  unreconciled: number
}

/** the cursor's row of chain_cursors: the last block whose events were reconciled */
export const RECONCILIATION_CURSOR = 'reconciliation'

/** the most blocks one log query spans (providers cap the range of eth_getLogs) */
const MAX_BLOCK_SPAN = 5_000n

const COMPLIANCE_EVENTS = new Set(['Frozen', 'Unfrozen', 'Paused', 'Unpaused'])

type SeenLog = {
  eventName: string
  args: Record<string, unknown>
  transactionHash: Hex
  logIndex: number
  blockNumber: bigint
  address: Address
}

/**
 * Reads back the token's Minted and Burned events and GoldMinter's compliance and ControlChanged events from the
 * block after the stored cursor (chain_cursors `reconciliation`; a restore rolls it back with the rest, so the
 * blocks the database forgot are read again) up to the newest block with the desk's confirmations, and matches each
 * to the desk's rows, one transaction per span of blocks that also moves the cursor (the Minted events' orders
 * locked and read in one statement, in id order, and their stored transactions in another, whatever the span's
 * mints):
 * - a Minted whose order exists with the same recipient and amount: confirmed with the chain's hash and block when
 *   the database does not show it confirmed and no confirmer follows it (an order whose transaction is stored,
 *   whatever its status, is left to its job and its signer's confirmer) (worker/db/confirmOrderFromChain.ts), with
 *   a 'reconciled' event; the token refuses a second mint of an order id, so the order is never minted twice;
 * - a Minted with no order, or whose recipient or amount differ; a Burned with no redemption; a compliance event with
 *   no operation; a ControlChanged with no control change: listed in unreconciled_events for the admins.
 * The setup GoldMinter's constructor applies (ControlChanged of change id 0) is the deployment's and matches. The
 * first pass with no cursor reads from the token's deployment block (TOKEN_DEPLOY_BLOCK; 0 when unset).
 */
export async function reconcileChainEvents(
  ctx: Pick<WorkerContext, 'db' | 'chain' | 'tokenAddress' | 'minterAddress' | 'deployBlock' | 'confirmations' | 'log'>,
  { actor, jobId = null }: ReconcileChainEventsParameters,
): Promise<ReconcileChainEventsReturnType> {
  const [head, start] = await Promise.all([
    ctx.chain.getBlockNumber({ cacheTime: 0 }),
    readCursorStart(ctx.db, { name: RECONCILIATION_CURSOR, deployBlock: ctx.deployBlock }),
  ])
  const safe = head - BigInt(Math.max(ctx.confirmations, 1)) + 1n
  const confirmed: string[] = []
  let unreconciled = 0
  let from = start
  while (from <= safe) {
    const to = from + MAX_BLOCK_SPAN - 1n < safe ? from + MAX_BLOCK_SPAN - 1n : safe
    const [tokenLogs, minterLogs] = await Promise.all([
      ctx.chain.getContractEvents({ address: ctx.tokenAddress, abi: goldTokenAbi, fromBlock: from, toBlock: to }),
      ctx.chain.getContractEvents({ address: ctx.minterAddress, abi: goldMinterAbi, fromBlock: from, toBlock: to }),
    ])
    const logs = [...tokenLogs, ...minterLogs]
      .map((l) => l as unknown as SeenLog) // viem's union of every event's args: each branch below reads its own
      .filter((l) => isWanted(ctx, l))
      .sort((a, b) =>
        a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
      )
    // the mint transactions' sender and nonce, read before the transaction
    const senders = new Map<Hex, { from: Address; nonce: bigint }>()
    for (const l of logs) {
      if (l.eventName !== 'Minted' || senders.has(l.transactionHash)) continue
      const t = await ctx.chain.getTransaction({ hash: l.transactionHash })
      senders.set(l.transactionHash, { from: getAddress(t.from), nonce: BigInt(t.nonce) })
    }
    const span = await ctx.db.transaction(async (tx) => {
      const done = { confirmed: [] as string[], unreconciled: 0 }
      const mints = await lockMintedOrders(tx, logs)
      for (const l of logs) {
        const outcome = await matchLog(tx, l, senders.get(l.transactionHash), mints)
        if (outcome.kind === 'confirmed') {
          done.confirmed.push(outcome.orderId)
          await recordJobEvent(tx, {
            event: 'reconciled',
            task: TASK.nonceResync,
            orderId: outcome.orderId,
            jobId,
            actor,
            detail: `found minted on chain by ${l.transactionHash} (block ${l.blockNumber}) while the order was ${outcome.was}: confirmed from the chain`,
            data: { hash: l.transactionHash, blockNumber: l.blockNumber.toString(), was: outcome.was },
          })
        } else if (outcome.kind === 'unreconciled' && (await recordUnreconciledEvent(tx, outcome.event))) {
          done.unreconciled++
          await recordJobEvent(tx, {
            event: 'unreconciled_event',
            task: TASK.nonceResync,
            jobId,
            actor,
            detail: `${l.eventName} in ${l.transactionHash} (block ${l.blockNumber}, log ${l.logIndex}): ${outcome.event.reason}`,
            data: { hash: l.transactionHash, logIndex: l.logIndex, event: l.eventName },
          })
        }
      }
      await tx.execute(sql`
        insert into chain_cursors (name, block_number) values (${RECONCILIATION_CURSOR}, ${to}::bigint)
        on conflict (name) do update set block_number = greatest(chain_cursors.block_number, excluded.block_number),
          updated_at = now()`)
      return done
    })
    confirmed.push(...span.confirmed)
    unreconciled += span.unreconciled
    from = to + 1n
  }
  if (confirmed.length > 0 || unreconciled > 0)
    ctx.log.warn(
      { fromBlock: start.toString(), toBlock: safe.toString(), confirmed: confirmed.length, unreconciled },
      'chain events reconciled',
    )
  return { fromBlock: start, toBlock: safe, confirmed, unreconciled }
}

function isWanted(ctx: Pick<WorkerContext, 'tokenAddress'>, l: SeenLog): boolean {
  if (isAddressEqual(l.address, ctx.tokenAddress)) return l.eventName === 'Minted' || l.eventName === 'Burned'
  return COMPLIANCE_EVENTS.has(l.eventName) || l.eventName === 'ControlChanged'
}

type Outcome =
  | { kind: 'matched' }
  | { kind: 'confirmed'; orderId: string; was: string }
  | { kind: 'unreconciled'; event: UnreconciledEventIn }

const ID_ARGUMENT: Record<string, string> = {
  Minted: 'orderId',
  Burned: 'redemptionId',
  Frozen: 'operationId',
  Unfrozen: 'operationId',
  Paused: 'operationId',
  Unpaused: 'operationId',
  ControlChanged: 'changeId',
}

const TABLE_OF: Record<string, string> = {
  Burned: 'redemptions',
  Frozen: 'compliance_operations',
  Unfrozen: 'compliance_operations',
  Paused: 'compliance_operations',
  Unpaused: 'compliance_operations',
  ControlChanged: 'control_changes',
}

type MintedOrder = { status: string; to_address: string; amount_wei: string; tx_hash: string | null }

/** The span's Minted events' orders, locked FOR UPDATE in id order, and which of their transactions are stored. */
type SpanMints = { orders: Map<string, MintedOrder>; storedTxs: Set<string> }

/**
 * Two statements for a span's mints, however many: the orders of its Minted events (a desk order id) locked and read
 * in id order, then which of the mint transactions of those not confirmed are stored (chain_txs).
 */
async function lockMintedOrders(tx: Tx, logs: readonly SeenLog[]): Promise<SpanMints> {
  const byId = new Map<string, Hex>()
  for (const l of logs) {
    if (l.eventName !== 'Minted') continue
    const id = decodeId(String(l.args.orderId ?? '') as Hex)
    if (id) byId.set(id, l.transactionHash)
  }
  if (byId.size === 0) return { orders: new Map(), storedTxs: new Set() }
  const rows = await tx.execute<MintedOrder & { id: string }>(sql`
    select id::text as id, status, to_address, amount_wei::text as amount_wei, tx_hash
    from mint_orders where id = any(${`{${[...byId.keys()].join(',')}}`}::uuid[])
    order by id for update`)
  const orders = new Map(rows.map(({ id, ...order }) => [id, order]))
  const open = [...orders].filter(([, o]) => o.status !== 'confirmed').flatMap(([id]) => byId.get(id) ?? [])
  const stored =
    open.length === 0
      ? []
      : await tx.execute<{ hash: string }>(
          sql`select hash from chain_txs where hash = any(${`{${open.join(',')}}`}::text[])`,
        )
  return { orders, storedTxs: new Set(stored.map((r) => r.hash)) }
}

async function matchLog(
  tx: Tx,
  l: SeenLog,
  sender: { from: Address; nonce: bigint } | undefined,
  mints: SpanMints,
): Promise<Outcome> {
  const subjectId = String(l.args[ID_ARGUMENT[l.eventName] ?? ''] ?? '') as Hex
  const id = decodeId(subjectId)
  const amountWei = typeof l.args.amount === 'bigint' ? l.args.amount : null
  const unreconciled = (reason: string): Outcome => ({
    kind: 'unreconciled',
    event: {
      txHash: l.transactionHash,
      logIndex: l.logIndex,
      blockNumber: l.blockNumber,
      contractAddress: l.address,
      event: l.eventName,
      subjectId: subjectId || null,
      orderId: id,
      amountWei,
      reason,
    },
  })

  if (l.eventName === 'Minted') {
    if (!id) return unreconciled('its order id is not one of the desk’s (not a uuid)')
    const order = mints.orders.get(id)
    if (!order) return unreconciled('no order of the desk has this id: minted outside mintdesk')
    const to = l.args.to as Address
    if (!isAddressEqual(getAddress(order.to_address), to) || BigInt(order.amount_wei) !== amountWei)
      return unreconciled(
        `the order is for ${order.amount_wei} wei to ${order.to_address}, the chain minted ${amountWei} wei to ${to}`,
      )
    if (order.status === 'confirmed') return { kind: 'matched' }
    // a mint whose transaction is stored is the pipeline's: its job re-sends the stored bytes and the signer's
    // confirmer confirms it (a worker killed after the broadcast leaves it pending); only a mint the database lost
    // is confirmed here
    if (mints.storedTxs.has(l.transactionHash)) return { kind: 'matched' }
    if (!sender) return unreconciled('the mint transaction could not be read')
    await confirmOrderFromChain(tx, {
      orderId: id,
      txHash: l.transactionHash,
      blockNumber: l.blockNumber,
      signerAddress: sender.from,
      nonce: sender.nonce,
    })
    return { kind: 'confirmed', orderId: id, was: order.status }
  }

  const table = TABLE_OF[l.eventName]
  if (!table) return { kind: 'matched' }
  // GoldMinter's constructor applies its setup as changes of id 0: the deployment's, no desk row
  if (l.eventName === 'ControlChanged' && /^0x0{64}$/.test(subjectId)) return { kind: 'matched' }
  if (!id) return unreconciled(`its id is not one of the desk’s (not a uuid)`)
  const found = await tx.execute(sql`select 1 from ${sql.identifier(table)} where id = ${id}::uuid`)
  if (found.length === 0) return unreconciled(`no row of ${table} has this id: sent outside mintdesk`)
  return { kind: 'matched' }
}

function decodeId(value: Hex): string | null {
  try {
    return bytes32ToOrderId(value)
  } catch {
    return null
  }
}
