import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type ListPendingNoncesParameters = {
  /** one signer's (any case); all signers' when not given */
  signerAddress?: string
  /** that one nonce only */
  nonce?: number
  /** each signer's lowest this many */
  perSigner?: number
}

export type PendingNonce = {
  /** as stored (checksummed) */
  signerAddress: string
  nonce: number
  /** what the nonce is bound to: an operation's own call, or a gap fill */
  use: string
  state: 'reserved' | 'signed'
  /** the operation's kind and id; null for a gap fill of a nonce nobody held */
  operation: string | null
  operationId: string | null
  /** the operation's status (a mint's order status), null without one */
  operationStatus: string | null
  /** the newest transaction signed at the nonce, null while only reserved */
  newest: { hash: string; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; broadcast: boolean } | null
}

/**
 * The signers' nonces still pending (reserved or signed, not mined, not released), by signer and nonce, each with
 * what holds it (the operation and its status) and the newest transaction signed at it (chain_txs, the highest fee
 * last).
 */
export async function listPendingNonces(db: DbOrTx, p: ListPendingNoncesParameters = {}): Promise<PendingNonce[]> {
  const rows = await db.execute<{
    signer_address: string
    nonce: string
    use: string
    state: 'reserved' | 'signed'
    operation: string | null
    operation_id: string | null
    operation_status: string | null
    hash: string | null
    max_fee: string | null
    tip: string | null
    broadcast: boolean | null
  }>(sql`
    select * from (
      select n.signer_address, n.nonce::text as nonce, n.use::text as use, n.state::text as state,
        n.operation::text as operation,
        coalesce(n.order_id, n.redemption_id, n.compliance_operation_id, n.control_change_id)::text as operation_id,
        coalesce(mo.status::text, r.status::text, co.status::text, cc.status::text) as operation_status,
        t.hash, t.max_fee_per_gas::text as max_fee, t.max_priority_fee_per_gas::text as tip,
        t.broadcast_at is not null as broadcast,
        row_number() over (partition by n.signer_address order by n.nonce) as k
      from signer_nonces n
      left join mint_orders mo on mo.id = n.order_id
      left join redemptions r on r.id = n.redemption_id
      left join compliance_operations co on co.id = n.compliance_operation_id
      left join control_changes cc on cc.id = n.control_change_id
      left join lateral (
        select hash, max_fee_per_gas, max_priority_fee_per_gas, broadcast_at from chain_txs c
        where c.signer_address = n.signer_address and c.nonce = n.nonce
        order by c.max_fee_per_gas desc, c.created_at desc limit 1
      ) t on true
      where n.state in ('reserved', 'signed')
        ${p.signerAddress === undefined ? sql`` : sql`and lower(n.signer_address) = ${p.signerAddress.toLowerCase()}`}
        ${p.nonce === undefined ? sql`` : sql`and n.nonce = ${p.nonce}`}
    ) p
    ${p.perSigner === undefined ? sql`` : sql`where k <= ${p.perSigner}`}
    order by signer_address, nonce::bigint`)
  return rows.map((row) => ({
    signerAddress: row.signer_address,
    nonce: Number(row.nonce),
    use: row.use,
    state: row.state,
    operation: row.operation,
    operationId: row.operation_id,
    operationStatus: row.operation_status,
    newest:
      row.hash === null
        ? null
        : {
            hash: row.hash,
            maxFeePerGas: BigInt(row.max_fee ?? '0'),
            maxPriorityFeePerGas: BigInt(row.tip ?? '0'),
            broadcast: row.broadcast === true,
          },
  }))
}
