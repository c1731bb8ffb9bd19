import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'
import { chainTxs, type OperationKindName } from '@/db/schema'
import { chainTxRow, type StoreSignedTxParameters } from './storeSignedTx'

export type StoreSignedTxsParameters = { txs: readonly (StoreSignedTxParameters & { kind: OperationKindName })[] }

/**
 * storeSignedTx for a send batch, in two statements: every signed operation stored BEFORE it
 * is broadcast (invariant 2), its nonce `reserved` -> `signed`. The caller checked,
 * under the rows' locks, that each nonce is still reserved for its order.
 */
export async function storeSignedTxs(tx: Tx, { txs }: StoreSignedTxsParameters): Promise<void> {
  if (txs.length === 0) return
  await tx.insert(chainTxs).values(txs.map(chainTxRow))
  const keys = sql.join(
    txs.map((p) => sql`(${p.signerAddress}, ${p.nonce}::bigint)`),
    sql`, `,
  )
  await tx.execute(sql`
    update signer_nonces sn set state = 'signed', updated_at = now()
    from (values ${keys}) as k(signer_address, nonce)
    where sn.signer_address = k.signer_address and sn.nonce = k.nonce and sn.state = 'reserved'`)
}
