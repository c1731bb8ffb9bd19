import { SpanKind, trace } from '@opentelemetry/api'
import type { Transport } from 'viem'
import { withSpan } from './withSpan'

/** the JSON-RPC methods of a mint's path that get a span (polling reads like eth_blockNumber do not) */
const TRACED_METHODS = new Set([
  'eth_sendRawTransaction',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_call',
  'eth_estimateGas',
  'eth_getTransactionCount',
])

/**
 * Wraps a viem transport so that the mint's chain calls are spans of its trace
 * (`eth_sendRawTransaction` above all). Only inside a recording span (a job's): a poll
 * outside any trace opens none, and with tracing off the request goes straight through.
 */
export function traceTransport<T extends Transport>(transport: T): T {
  const wrapped: Transport = (params) => {
    const inner = transport(params)
    return {
      ...inner,
      request: async (args, options) => {
        if (!TRACED_METHODS.has(args.method) || !trace.getActiveSpan()?.isRecording())
          return inner.request(args, options)
        return withSpan(
          args.method,
          { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'jsonrpc', 'rpc.method': args.method } },
          () => inner.request(args, options),
        )
      },
    }
  }
  // the same transport with its request wrapped: its type (config, value) is unchanged
  return wrapped as T
}
