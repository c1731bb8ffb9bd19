import { type Hex, type PublicClient, RpcRequestError, TransactionRejectedRpcError } from 'viem'
import type { RpcEndpoint } from '@/lib/chain/createRpcEndpoints'
import { rpcEndpointsOf } from '@/lib/chain/rpcEndpointsOf'
import {
  BroadcastRejectedError,
  FeeTooLowError,
  InsufficientFundsError,
  NonceConsumedError,
} from '@/worker/errors/chain'
import { errorText } from './errorText'
import { nodeMessage } from './nodeMessage'
import { readTransaction } from './readTransaction'

export type BroadcastRawTxParameters = {
  raw: Hex
  hash: Hex
  signerAddress: string
  nonce: bigint
  /** our other transactions at the same nonce (the original, replacements, a gap fill) */
  siblings?: readonly Hex[]
}

/** sent: the node took it now; already_known: it (or one of ours at its nonce) was already in the pool or mined */
export type BroadcastRawTxReturnType = 'sent' | 'already_known'

// the wordings of geth, erigon, nethermind, besu, reth and anvil
const ALREADY_KNOWN =
  /already known|already imported|known transaction|alreadyknown|transaction already exists|already in (the )?(mem)?pool/
const NONCE_TOO_LOW = /nonce too low|oldnonce|nonce has already been used|invalid nonce.*lower|nonce is too low/
const UNDERPRICED = /replacement transaction underpriced|replacementnotallowed|replacement fee too low|underpriced/
const INSUFFICIENT_FUNDS = /insufficient funds|insufficientfunds|insufficient balance/
const FEE_TOO_LOW =
  /less than block base fee|fee cap less than|feecap.*too low|max fee per gas less than|transaction underpriced|fee too low|feetoolow|minimum.*(tip|fee)/

/**
 * eth_sendRawTransaction of stored bytes, idempotent: "already known", and "nonce too
 * low" or "replacement underpriced" when the node knows this transaction or one of its
 * siblings (so ours holds or has used the nonce), all mean "already sent". Everything
 * else throws: a rejection as BroadcastRejectedError (InsufficientFundsError for gas
 * money, FeeTooLowError when the fee cap is below what the node takes now,
 * NonceConsumedError when a foreign transaction used the nonce), a network failure as
 * it came. All of them are transient for the job.
 *
 * With several endpoints (RPC_URLS) the bytes go to every healthy one at once, so a
 * transaction one provider drops still lands: sent when any endpoint took it, already
 * known when any knew it, and otherwise the first endpoint's rejection by a node (a
 * network failure only when no node answered).
 */
export async function broadcastRawTx(
  client: PublicClient,
  p: BroadcastRawTxParameters,
): Promise<BroadcastRawTxReturnType> {
  const rpc = rpcEndpointsOf(client)
  if (!rpc || rpc.endpoints.length < 2) return sendTo(client, client.request, p)
  const outcomes = await Promise.allSettled(rpc.usable().map((e) => sendTo(client, e.request, p)))
  const took = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))
  if (took.includes('sent')) return 'sent'
  if (took.includes('already_known')) return 'already_known'
  const errors = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []))
  throw errors.find((e) => e instanceof BroadcastRejectedError || e instanceof NonceConsumedError) ?? errors[0]
}

/** one endpoint's send (the client's own request, or one endpoint's), its answer judged as above */
async function sendTo(
  client: PublicClient,
  request: PublicClient['request'] | RpcEndpoint['request'],
  p: BroadcastRawTxParameters,
): Promise<BroadcastRawTxReturnType> {
  try {
    await request({ method: 'eth_sendRawTransaction', params: [p.raw] })
    return 'sent'
  } catch (error) {
    const text = errorText(error)
    if (ALREADY_KNOWN.test(text)) return 'already_known'
    const nonceTooLow = NONCE_TOO_LOW.test(text)
    if (nonceTooLow || UNDERPRICED.test(text)) {
      // the client's read: with several endpoints, a null is asked of the others before it is believed
      for (const hash of [p.hash, ...(p.siblings ?? [])]) {
        if (await readTransaction(client, { hash })) return 'already_known'
      }
      if (nonceTooLow) throw new NonceConsumedError(p.signerAddress, p.nonce)
    }
    // the node's own message first: the job's failure reason is the first line of the error
    const said = nodeMessage(error) ?? text
    if (INSUFFICIENT_FUNDS.test(text)) throw new InsufficientFundsError(p.hash, said, { cause: error })
    if (FEE_TOO_LOW.test(text)) throw new FeeTooLowError(p.hash, said, { cause: error })
    if (error instanceof TransactionRejectedRpcError || error instanceof RpcRequestError) {
      throw new BroadcastRejectedError(p.hash, said, { cause: error })
    }
    throw error
  }
}
