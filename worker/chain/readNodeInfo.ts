import type { PublicClient } from 'viem'
import type { NodeInfo } from '../runtime/context'

/**
 * What node answers: web3_clientVersion. anvil (`anvil/v1.7.1`) has test-only methods
 * such as anvil_dropAllTransactions; real nodes must never be sent those.
 */
export async function readNodeInfo(client: PublicClient): Promise<NodeInfo> {
  const clientVersion = await client.request({ method: 'web3_clientVersion' })
  return { clientVersion, isAnvil: /^anvil\//i.test(clientVersion) }
}
