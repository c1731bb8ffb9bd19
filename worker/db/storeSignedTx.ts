import { and, eq, sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import type { Tx } from '@/db/client'
import { chainTxs, type OperationKindName, signerNonces } from '@/db/schema'

export type StoreSignedTxParameters = {
  hash: Hex
  signerAddress: string
  nonce: bigint
  orderId: string | null
  /** set for a control change's transaction (orderId null) */
  controlChangeId?: string | null
  /** set for a redemption's burn */
  redemptionId?: string | null
  /** set for a compliance operation's transaction */
  complianceOperationId?: string | null
  /** the operation's kind for its first signing, or a replacement, or a gap fill */
  kind: OperationKindName | 'replacement' | 'gap_fill'
  rawTx: Hex
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  gasLimit: bigint
}

/**
 * Stores a signed transaction BEFORE it is broadcast (invariant 2): from here on a
 * retry re-sends these exact bytes. The nonce moves from `reserved` to `signed`; a gap
 * fill also takes the nonce over (`use` gap_fill).
 */
export async function storeSignedTx(tx: Tx, p: StoreSignedTxParameters): Promise<void> {
  await tx.insert(chainTxs).values(chainTxRow(p))
  await tx
    .update(signerNonces)
    .set({
      state: sql`case when ${signerNonces.state} = 'mined' then ${signerNonces.state} else 'signed'::nonce_state end`,
      ...(p.kind === 'gap_fill' ? { use: 'gap_fill' as const } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(signerNonces.signerAddress, p.signerAddress), eq(signerNonces.nonce, p.nonce)))
}

/** The chain_txs row of a signed transaction (fee and gas figures as decimal strings). */
export function chainTxRow(p: StoreSignedTxParameters): typeof chainTxs.$inferInsert {
  return {
    hash: p.hash,
    signerAddress: p.signerAddress,
    nonce: p.nonce,
    orderId: p.orderId,
    controlChangeId: p.controlChangeId ?? null,
    redemptionId: p.redemptionId ?? null,
    complianceOperationId: p.complianceOperationId ?? null,
    kind: p.kind,
    rawTx: p.rawTx,
    maxFeePerGas: p.maxFeePerGas.toString(),
    maxPriorityFeePerGas: p.maxPriorityFeePerGas.toString(),
    gasLimit: p.gasLimit.toString(),
  }
}
