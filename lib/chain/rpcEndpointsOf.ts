import type { Client } from 'viem'
import type { RpcEndpoints } from './createRpcEndpoints'

/**
 * The endpoints behind a client made by createChainClient (its transport's value), with
 * their health; undefined for any other client.
 */
export function rpcEndpointsOf(client: Pick<Client, 'transport'>): RpcEndpoints | undefined {
  const value = (client.transport as { rpcEndpoints?: unknown }).rpcEndpoints
  if (typeof value !== 'object' || value === null || !('endpoints' in value) || !('usable' in value)) return undefined
  // built by createRpcEndpoints: the only writer of rpcEndpoints on a transport
  return value as RpcEndpoints
}
