import { sql } from 'drizzle-orm'
import type { Tx } from '@/db/client'

export type MinedNonce = {
  signerAddress: string
  nonce: bigint
  /** the transaction at this nonce that a receipt shows mined */
  hash: string
  blockNumber: bigint
}

export type MarkTxsMinedParameters = { mined: readonly MinedNonce[] }

/**
 * markTxMined for many nonces in two statements (a confirmer pass settles many orders at
 * once): per nonce, the mined transaction gets its block and its siblings none, and the
 * nonce becomes `mined`. Call it in the transaction that changes the orders.
 */
export async function markTxsMined(tx: Tx, { mined }: MarkTxsMinedParameters): Promise<void> {
  if (mined.length === 0) return
  const rows = sql.join(
    mined.map((m) => sql`(${m.signerAddress}::text, ${m.nonce}::bigint, ${m.hash}::text, ${m.blockNumber}::bigint)`),
    sql`, `,
  )
  await tx.execute(sql`
    update chain_txs c set mined_block = case when c.hash = v.hash then v.block else null end
    from (values ${rows}) as v(signer, nonce, hash, block)
    where c.signer_address = v.signer and c.nonce = v.nonce`)
  await tx.execute(sql`
    update signer_nonces s set state = 'mined', updated_at = now()
    from (values ${rows}) as v(signer, nonce, hash, block)
    where s.signer_address = v.signer and s.nonce = v.nonce`)
}
