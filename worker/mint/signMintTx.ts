import { getAddress } from 'viem'
import { SignerUnavailableError } from '@/lib/errors/chain'
import { PermanentJobError } from '@/lib/errors/jobs'
import { ReserveCheckRefusedError } from '@/lib/errors/reserves'
import { TASK } from '@/lib/jobs/jobKeys'
import { recordJobEvent } from '@/lib/jobs/recordJobEvent'
import type { PrepareMintReturnType } from '../chain/prepareMint'
import { signTx } from '../chain/signTx'
import { getMintOrder } from '../db/getMintOrder'
import { type ChainTx, listOrderTxs } from '../db/listOrderTxs'
import { reserveNonce } from '../db/reserveNonce'
import { storeSignedTx } from '../db/storeSignedTx'
import type { WorkerContext } from '../runtime/context'
import { checkBeforeSigning } from './checkBeforeSigning'

export type SignMintTxParameters = {
  orderId: string
  prepared: PrepareMintReturnType
  jobId: bigint
  attempt: number
  actor: string
}

export type SignMintTxReturnType =
  /** signed and stored now */
  | { kind: 'signed'; tx: ChainTx }
  /** another run signed this order first: use its transactions */
  | { kind: 'exists'; txs: ChainTx[] }
  /** the order was confirmed or cancelled meanwhile */
  | { kind: 'skipped'; status: string }

/**
 * The heart of invariants 2, 3 and 4, in ONE database transaction: lock the order (and
 * re-check that nothing was signed for it), check its bars and the reserves
 * (checkBeforeSigning: a refusal records 'refused' and throws, permanent, before any
 * nonce is taken or KMS is asked), take the next nonce of a signer under its
 * row lock and bind it to the order, sign through KMS while that lock is held, store
 * the raw transaction and its hash, write the 'nonce_reserved' and 'signed' events.
 * If anything fails, KMS included, everything rolls back and the nonce is handed out
 * again: no nonce is lost, no order gets two nonces. Broadcasting comes after commit.
 */
export async function signMintTx(ctx: WorkerContext, p: SignMintTxParameters): Promise<SignMintTxReturnType> {
  const event = { task: TASK.mintSend, orderId: p.orderId, jobId: p.jobId, attempt: p.attempt, actor: p.actor }
  try {
    return await signInTransaction(ctx, p, event)
  } catch (error) {
    // the transaction rolled back; the refusal stays on the order's timeline
    if (error instanceof ReserveCheckRefusedError) {
      await recordJobEvent(ctx.db, { ...event, event: 'refused', detail: error.reason, data: { check: error.check } })
    }
    throw error
  }
}

type SignEvent = { task: string; orderId: string; jobId: bigint; attempt: number; actor: string }

async function signInTransaction(ctx: WorkerContext, p: SignMintTxParameters, event: SignEvent): Promise<SignMintTxReturnType> {
  return ctx.db.transaction(async (tx) => {
    const order = await getMintOrder(tx, { orderId: p.orderId, lock: true })
    if (!order) throw new PermanentJobError(`order ${p.orderId} does not exist`)
    if (order.status === 'confirmed' || order.status === 'cancelled') return { kind: 'skipped', status: order.status }
    const existing = await listOrderTxs(tx, { orderId: p.orderId })
    if (existing.length > 0) return { kind: 'exists', txs: existing }

    // the first signature only: a re-run re-sends the stored bytes (above), a replacement re-signs the same calldata
    await checkBeforeSigning(tx, { chain: ctx.chain, tokenAddress: ctx.tokenAddress, order, data: p.prepared.data, approvalThresholdWei: ctx.approvalThresholdWei })
    const { signerAddress, nonce } = await reserveNonce(tx, { chainId: ctx.chainId, candidates: [...ctx.signers.keys()], orderId: p.orderId })
    await recordJobEvent(tx, { ...event, event: 'nonce_reserved', detail: `nonce ${nonce} of ${signerAddress}`, data: { signer: signerAddress, nonce: nonce.toString() } })

    const signer = ctx.signers.get(getAddress(signerAddress))
    if (!signer) throw new SignerUnavailableError(signerAddress)
    const { gas, data, fees } = p.prepared
    const { raw, hash } = await signTx(signer.account, {
      chainId: ctx.chainId,
      nonce,
      to: ctx.tokenAddress,
      data,
      gas,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    })
    const stored = {
      hash,
      signerAddress,
      nonce,
      orderId: p.orderId,
      kind: 'mint' as const,
      rawTx: raw,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      gasLimit: gas,
    }
    await storeSignedTx(tx, stored)
    await recordJobEvent(tx, {
      ...event,
      event: 'signed',
      detail: `signed ${hash} (nonce ${nonce})`,
      data: { hash, signer: signerAddress, nonce: nonce.toString(), maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(), gas: gas.toString() },
    })
    const now = new Date()
    return {
      kind: 'signed',
      tx: {
        ...stored,
        maxFeePerGas: stored.maxFeePerGas.toString(),
        maxPriorityFeePerGas: stored.maxPriorityFeePerGas.toString(),
        gasLimit: gas.toString(),
        createdAt: now,
        broadcastAt: null,
        minedBlock: null,
      },
    }
  })
}
