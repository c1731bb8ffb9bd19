import type { Address, Hex, PublicClient } from 'viem'
import { decodeMintError } from '@/worker/chain/decodeMintError'

export type DecodeMintRevertParameters = {
  from: Address
  to: Address
  data: Hex
  gas: bigint
  /** the block the transaction reverted in */
  blockNumber: bigint
}

/**
 * Why a mined mint reverted: receipts carry no reason, so the call is replayed with
 * eth_call on the state of its block and the revert data decoded with the token's
 * errors. Best effort: the replay sees the block's end state.
 */
export async function decodeMintRevert(client: PublicClient, p: DecodeMintRevertParameters): Promise<string> {
  try {
    await client.call({ account: p.from, to: p.to, data: p.data, gas: p.gas, blockNumber: p.blockNumber })
    return 'reverted on chain (the replay does not revert; out of gas or state changed within the block)'
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return decodeMintError(error)?.reason ?? `reverted on chain (${message.split('\n')[0]})`
  }
}
