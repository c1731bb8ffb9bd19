import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { markOrdersConfirmed } from './markOrdersConfirmed'

export type ConfirmOrderFromChainParameters = {
  orderId: string
  txHash: string
  blockNumber: bigint
  /** the mint transaction's sender and nonce, as the chain has them */
  signerAddress: string
  nonce: bigint
}

/**
 * In the caller's transaction (which holds the order's lock): a mint found on chain for an order the database
 * does not show confirmed (a restore rolled it back to pending or awaiting approval, or lost its chain_txs row) is
 * confirmed with the chain's hash and block (markOrdersConfirmed: its event, its bars backing). The transaction's
 * nonce row, if the signer's is there (a stored transaction, or one the nonce resync took over), is marked mined and
 * bound to the order when it was bound to nothing; the order takes the signer and nonce when it had none.
 */
export async function confirmOrderFromChain(tx: Tx, p: ConfirmOrderFromChainParameters): Promise<void> {
  await markOrdersConfirmed(tx, { orders: [{ orderId: p.orderId, txHash: p.txHash, blockNumber: p.blockNumber }] })
  await tx.execute(sql`
    update chain_txs set mined_block = case when hash = ${p.txHash} then ${p.blockNumber}::bigint else null end
    where signer_address = ${p.signerAddress} and nonce = ${p.nonce}::bigint`)
  await tx.execute(sql`
    update signer_nonces set state = 'mined', updated_at = now(),
      order_id = case when num_nonnulls(order_id, control_change_id, redemption_id, compliance_operation_id) = 0
        then ${p.orderId}::uuid else order_id end
    where signer_address = ${p.signerAddress} and nonce = ${p.nonce}::bigint`)
  await tx.execute(sql`
    update mint_orders set signer_address = ${p.signerAddress}, nonce = ${p.nonce}::bigint
    where id = ${p.orderId}::uuid and signer_address is null
      and not exists (select 1 from mint_orders o where o.signer_address = ${p.signerAddress} and o.nonce = ${p.nonce}::bigint)`)
}
