import type { Address, Hex } from 'viem'
import { requestNonceResync } from '@/lib/jobs/requestNonceResync'
import { FeeTooLowError, NonceConsumedError } from '@/worker/errors/chain'
import { broadcastRawTx } from '../chain/broadcastRawTx'
import type { ChainTx } from '../db/listOrderTxs'
import type { WorkerContext } from '../runtime/context'
import type { SendOrder, SendOutcomes } from './sendOutcome'
import { verifyStoredTx } from './verifyStoredTx'

/** A transaction to send: `stored` set when its bytes come from an earlier run (verified against the order first). */
export type ToBroadcast = {
  order: SendOrder
  raw: Hex
  hash: Hex
  signerAddress: Address
  nonce: bigint
  siblings: Hex[]
  stored?: ChainTx
}

export type Broadcast = ToBroadcast & { result: 'sent' | 'already_known' | 'underpriced' }

export type BroadcastSendBatchParameters = { items: readonly ToBroadcast[] }

export type BroadcastSendBatchReturnType = { broadcast: Broadcast[]; outcomes: SendOutcomes }

/**
 * eth_sendRawTransaction of every stored transaction of the batch, each signer's nonces in
 * ascending order and all in the same tick, so the chain client sends them as one JSON-RPC
 * batch in that order (lib/chain/createChainClient.ts) rather than one round trip each; a
 * node holds a later nonce back until the earlier one arrives. Idempotent (broadcastRawTx);
 * a fee cap the base fee outgrew is `underpriced`, left to the confirm side to outbid; any
 * other failure is that order's (transient: its stored bytes are sent again on retry); "nonce too low" also adds a
 * nonce_resync of the signer (lib/jobs/requestNonceResync.ts).
 * Bytes an earlier run stored are verified against their order first (worker/mint/verifyStoredTx.ts).
 */
export async function broadcastSendBatch(
  ctx: WorkerContext,
  { items }: BroadcastSendBatchParameters,
): Promise<BroadcastSendBatchReturnType> {
  const outcomes: SendOutcomes = new Map()
  const ordered = [...items].sort((a, b) =>
    a.signerAddress === b.signerAddress
      ? a.nonce < b.nonce
        ? -1
        : a.nonce > b.nonce
          ? 1
          : 0
      : a.signerAddress < b.signerAddress
        ? -1
        : 1,
  )
  const verified: ToBroadcast[] = []
  for (const item of ordered) {
    try {
      if (item.stored) await verifyStoredTx(ctx, { tx: item.stored })
      verified.push(item)
    } catch (error) {
      outcomes.set(item.order.orderId, { kind: 'failed', error })
    }
  }
  const results = await Promise.allSettled(verified.map((item) => send(ctx, item)))
  const broadcast: Broadcast[] = []
  for (const [i, item] of verified.entries()) {
    const result = results[i]
    if (result?.status === 'fulfilled') broadcast.push({ ...item, result: result.value })
    else outcomes.set(item.order.orderId, { kind: 'failed', error: result?.reason })
  }
  return { broadcast, outcomes }
}

async function send(ctx: WorkerContext, item: ToBroadcast): Promise<Broadcast['result']> {
  try {
    return await broadcastRawTx(ctx.chain, {
      raw: item.raw,
      hash: item.hash,
      signerAddress: item.signerAddress,
      nonce: item.nonce,
      siblings: item.siblings,
    })
  } catch (error) {
    if (error instanceof FeeTooLowError) return 'underpriced'
    // "nonce too low": the chain is ahead of the database (a restore); the signer is resynced before its next batch
    if (error instanceof NonceConsumedError)
      await requestNonceResync(ctx.db, {
        signerAddress: item.signerAddress,
        actor: ctx.workerId(),
        detail: `broadcast of nonce ${item.nonce} answered "nonce too low"`,
      }).catch((e: unknown) => ctx.log.error({ err: e }, 'nonce resync not requested'))
    throw error
  }
}
