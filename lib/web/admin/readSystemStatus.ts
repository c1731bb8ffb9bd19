import { sql } from 'drizzle-orm'
import type { PublicClient } from 'viem'
import type { DbOrTx } from '@/db/client'
import { rpcEndpointsOf } from '@/lib/chain/rpcEndpointsOf'
import { countFeeCappedOrders } from '@/lib/ops/countFeeCappedOrders'
import { countUnreconciledEvents } from '@/lib/ops/countUnreconciledEvents'
import { ChainTimeoutError } from '@/lib/web/errors/admin'
import { readLatestReserveCheck } from '@/lib/web/reserves/readLatestReserveCheck'
import { listPendingNonces } from '@/lib/web/signers/listPendingNonces'
import { readSigningState } from '@/lib/web/signingSwitch/readSigningState'
import type { ApiRpcEndpoint, ApiSigner, ApiSystem, ApiWorker } from './apiTypes'
import { isoSql } from './sql'

export type ReadSystemStatusParameters = {
  /** a read-only chain client, or null when no RPC is configured */
  chain: PublicClient | null
  chainId: number | undefined
  tokenAddress: string | undefined
  confirmations: number
  /** shown in dev mode only: pass undefined in production */
  rpcUrl?: string
  /** dev mode: each endpoint's URL beside its label */
  showRpcUrls?: boolean
  lowBalanceWei: bigint
  /** a worker silent this long is shown as not alive (its jobs get taken over) */
  staleAfterMs: number
  /** the chain reads give up after this long, so the page answers with the DB figures */
  chainTimeoutMs?: number
}

export type ReadSystemStatusReturnType = ApiSystem

type ChainRead = { blockNumber: bigint; perSigner: Map<string, { latest: number; pending: number; balance: bigint }> }

/**
 * The system's health for the admin: each signer's nonce in Postgres (the source of
 * truth) next to the chain's (`latest` and `pending` transaction counts), the nonces in
 * flight and the gas balance with a low-balance flag; the workers' heartbeats; the orders
 * the fee ceiling holds back (lib/ops/countFeeCappedOrders.ts); the latest reserve
 * reconciliation (reserve_checks, with its age and shortfall). The web
 * only reads the chain. If the RPC is down or slow, the answer still comes, with the
 * database figures and the chain fields null (`chain.available: false`). Each chain endpoint
 * (RPC_URLS) is probed afresh: its health, head and latency (`rpcEndpoints`, the URL in dev
 * mode only).
 */
export async function readSystemStatus(db: DbOrTx, p: ReadSystemStatusParameters): Promise<ReadSystemStatusReturnType> {
  const signerRows = await db.execute<{ address: string; active: boolean; next_nonce: bigint; in_flight: number }>(sql`
    select s.address, s.active, s.next_nonce,
      (select count(*) from signer_nonces n where n.signer_address = s.address and n.state in ('reserved', 'signed'))::int as in_flight
    from signers s
    order by s.created_at, s.address`)
  const workerRows = await db.execute<{
    id: string
    host: string
    pid: number
    started_at: string
    last_seen_at: string
    alive: boolean
  }>(sql`
    select id, host, pid, ${isoSql(sql`started_at`)} as started_at, ${isoSql(sql`last_seen_at`)} as last_seen_at,
      last_seen_at > now() - make_interval(secs => ${p.staleAfterMs / 1000}) as alive
    from workers
    where stopped_at is null
    order by last_seen_at desc`)
  const pendingNonces = await listPendingNonces(db, { perSigner: 50 })
  const feeCappedOrders = await countFeeCappedOrders(db)
  const unreconciledEvents = await countUnreconciledEvents(db)
  const reserveCheck = await readLatestReserveCheck(db)
  const signing = await readSigningState(db)

  let chainRead: ChainRead | null = null
  let chainError: string | null = p.chain ? null : 'No RPC endpoint is configured.'
  // every endpoint probed afresh (head, latency), beside the reads; a probe has its own short timeout
  const rpc = p.chain ? rpcEndpointsOf(p.chain) : undefined
  const probed = rpc?.probe()
  if (p.chain) {
    try {
      chainRead = await withTimeout(
        readChain(
          p.chain,
          signerRows.map((s) => s.address),
        ),
        p.chainTimeoutMs ?? 3_000,
      )
    } catch (error) {
      chainError = describeChainError(error)
    }
  }
  const rpcEndpoints: ApiRpcEndpoint[] = ((await probed) ?? []).map((e) => ({
    label: e.label,
    ...(p.showRpcUrls ? { url: e.url } : {}),
    healthy: e.health.healthy,
    head: e.health.head === null ? null : Number(e.health.head),
    latencyMs: e.health.latencyMs,
    ...(e.health.lastError ? { lastError: e.health.lastError } : {}),
  }))

  const signers: ApiSigner[] = signerRows.map((s) => {
    const onChain = chainRead?.perSigner.get(s.address.toLowerCase())
    return {
      address: s.address,
      active: s.active,
      nextNonce: Number(s.next_nonce),
      chainNonce: onChain?.latest ?? null,
      pending: onChain?.pending ?? null,
      balanceWei: onChain ? onChain.balance.toString() : null,
      inFlight: s.in_flight,
      lowBalance: onChain ? onChain.balance < p.lowBalanceWei : null,
      pendingNonces: pendingNonces
        .filter((n) => n.signerAddress === s.address)
        .map((n) => ({
          nonce: n.nonce,
          state: n.state,
          use: n.use,
          operation: n.operation,
          operationId: n.operationId,
          operationStatus: n.operationStatus,
          hash: n.newest?.hash ?? null,
          maxFeePerGas: n.newest?.maxFeePerGas.toString() ?? null,
          maxPriorityFeePerGas: n.newest?.maxPriorityFeePerGas.toString() ?? null,
        })),
    }
  })
  const workers: ApiWorker[] = workerRows.map((w) => ({
    id: w.id,
    host: w.host,
    pid: w.pid,
    startedAt: w.started_at,
    lastSeenAt: w.last_seen_at,
    alive: w.alive,
  }))

  return {
    chainId: p.chainId ?? null,
    tokenAddress: p.tokenAddress ?? null,
    confirmations: p.confirmations,
    signers,
    workers,
    ...(p.rpcUrl ? { rpcUrl: p.rpcUrl } : {}),
    rpcEndpoints,
    chain: {
      available: chainRead !== null,
      blockNumber: chainRead ? Number(chainRead.blockNumber) : null,
      error: chainError,
    },
    lowBalanceWei: p.lowBalanceWei.toString(),
    staleAfterMs: p.staleAfterMs,
    feeCappedOrders,
    unreconciledEvents,
    reserveCheck,
    signing,
  }
}

async function readChain(client: PublicClient, addresses: string[]): Promise<ChainRead> {
  const [blockNumber, ...perSigner] = await Promise.all([
    client.getBlockNumber(),
    ...addresses.map(async (address) => {
      const a = address as `0x${string}`
      const [latest, pending, balance] = await Promise.all([
        client.getTransactionCount({ address: a, blockTag: 'latest' }),
        client.getTransactionCount({ address: a, blockTag: 'pending' }),
        client.getBalance({ address: a }),
      ])
      return [address.toLowerCase(), { latest, pending, balance }] as const
    }),
  ])
  return { blockNumber, perSigner: new Map(perSigner) }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChainTimeoutError(`no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** A short, client-safe reason (viem's messages can carry the RPC URL; they stay in the server log). */
function describeChainError(error: unknown): string {
  if (error instanceof ChainTimeoutError)
    return `The chain RPC did not answer within the time limit (${error.message}).`
  const name = error instanceof Error ? error.name : 'Error'
  return `The chain RPC could not be read (${name}).`
}
