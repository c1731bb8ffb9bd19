import { BaseError } from './BaseError'

/** Errors of the chain client's endpoints (lib/chain/createRpcEndpoints.ts). */

/**
 * An endpoint the client holds as down (unreachable, or its head behind the others) while another
 * is healthy: the request is not sent to it, and the fallback goes on to the next endpoint at once.
 */
export class RpcEndpointDownError extends BaseError<'rpc_endpoint_down'> {
  override name = 'RpcEndpointDownError'

  constructor(label: string, reason: string) {
    super('rpc_endpoint_down', `${label} is held as down: ${reason}`)
  }
}
