import type postgres from 'postgres'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PrivateKeyAccount,
} from 'viem'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import type { ApiRedemptionApproval } from '@/lib/web/signing/apiTypes'
import { signRedemptionApproval } from '@/tests/helpers/redemptions'
import type { Api } from './api'

// The chaos runs' redemptions (docs/decisions/055-redemptions.md): holders send back what was minted to them, staff
// match each deposit to its order's bars through the HTTP API, the approver signs, all while workers are killed.

export type RedeemOrdersParameters = {
  api: Api
  sql: postgres.Sql
  /** the node itself (not the workers' fault proxy) and GoldMinter, for the holders' transfers */
  rpcUrl: string
  chainId: number
  tokenAddress: Address
  minterAddress: Address
  /** confirmed orders to redeem whole, each with its recipient's key */
  orders: readonly { orderId: string; holder: PrivateKeyAccount; amountWei: bigint }[]
  giveUpAfterMs: number
  log: (line: string) => void
}

export type RedeemOrdersReport = {
  /** the redemptions accepted and signed */
  redemptionIds: string[]
  problems: string[]
}

/**
 * Redeems each order whole: its holder (funded with gas money) transfers the order's amount to the redemption
 * address; once the deposit is recorded, staff POST the redemption with the order's bars and the approver signs it,
 * each request retried on a 5xx or a lost answer (a retried POST that finds the deposit taken looks it up).
 */
export async function redeemOrders(p: RedeemOrdersParameters): Promise<RedeemOrdersReport> {
  const problems: string[] = []
  const giveUpAt = Date.now() + p.giveUpAfterMs
  const chain = defineChain({
    id: p.chainId,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [p.rpcUrl] } },
  })
  const rpc = async (method: string, params: unknown[]) => {
    const res = await fetch(p.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return ((await res.json()) as { result: unknown }).result
  }
  const wallet = (holder: PrivateKeyAccount) =>
    createWalletClient({ account: holder, chain, transport: http(p.rpcUrl) })
  const redemptionAddress = await createPublicClient({ chain, transport: http(p.rpcUrl) }).readContract({
    address: p.minterAddress,
    abi: goldMinterAbi,
    functionName: 'redemptionAddress',
  })

  const deposits: { orderId: string; txHash: Hex }[] = []
  for (const o of p.orders) {
    await rpc('anvil_setBalance', [o.holder.address, '0x56BC75E2D63100000'])
    const txHash = await wallet(o.holder).writeContract({
      address: p.tokenAddress,
      abi: goldTokenAbi,
      functionName: 'transfer',
      args: [redemptionAddress, o.amountWei],
    })
    deposits.push({ orderId: o.orderId, txHash })
  }
  p.log(`redemptions: ${deposits.length} deposits sent to ${redemptionAddress}`)

  const redemptionIds: string[] = []
  for (const d of deposits) {
    const seen = await waitUntil(giveUpAt, async () => {
      const rows = await p.sql`select 1 from deposits where tx_hash = ${d.txHash.toLowerCase()}`
      return rows.length > 0
    })
    if (!seen) {
      problems.push(`deposit ${d.txHash} of order ${d.orderId} was never recorded`)
      continue
    }
    const bars = await p.sql<{ serial: string; refiner: string }[]>`
      select b.serial, b.refiner from mint_order_bars ob join vault_bars b on b.id = ob.bar_id
      where ob.order_id = ${d.orderId} order by ob.position`
    const body = JSON.stringify({ depositTx: d.txHash, bars, reference: `CHAOS-${d.orderId.slice(0, 8)}` })
    const id = await retry(giveUpAt, async (attempt) => {
      const res = await p.api({
        method: 'POST',
        path: '/api/gold/redemptions',
        as: 'staff',
        headers: { 'content-type': 'application/json' },
        body,
      })
      const text = await res.text()
      if (res.status === 202) return (JSON.parse(text) as { redemptionId: string }).redemptionId
      if (res.status === 409 && attempt > 0 && /deposit_already_used/.test(text)) {
        const [row] = await p.sql<{ id: string }[]>`
          select id::text as id from redemptions where deposit_tx_hash = ${d.txHash.toLowerCase()}
            and status not in ('rejected', 'cancelled')`
        return row?.id ?? new Error(`the deposit is taken, but by no redemption: ${text}`)
      }
      if (res.status >= 400 && res.status < 500) return new Error(`POST /api/gold/redemptions: ${res.status} ${text}`)
      return undefined
    })
    if (id instanceof Error || id === undefined) {
      problems.push(`redemption of order ${d.orderId}: ${id instanceof Error ? id.message : 'gave up'}`)
      continue
    }
    const signed = await retry(giveUpAt, async (attempt) => {
      const got = await p.api({ method: 'GET', path: `/api/gold/redemptions/${id}/approval`, as: 'approver' })
      if (got.status !== 200) return got.status < 500 ? new Error(`approval: ${got.status}`) : undefined
      const signature = await signRedemptionApproval((await got.json()) as ApiRedemptionApproval)
      const res = await p.api({
        method: 'POST',
        path: `/api/gold/redemptions/${id}/approve`,
        as: 'approver',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ signature }),
      })
      const text = await res.text()
      if (res.status === 200) return true
      if (res.status === 409 && attempt > 0 && /already_signed|not_awaiting_approval/.test(text)) return true
      if (res.status >= 400 && res.status < 500) return new Error(`approve: ${res.status} ${text}`)
      return undefined
    })
    if (signed !== true) {
      problems.push(`redemption ${id}: ${signed instanceof Error ? signed.message : 'the approval gave up'}`)
      continue
    }
    redemptionIds.push(id)
  }
  p.log(`redemptions: ${redemptionIds.length} of ${p.orders.length} requested and signed`)
  return { redemptionIds, problems }
}

/** `step` until it answers (a value or an Error) or the time is up; a throw or undefined is tried again. */
async function retry<T>(giveUpAt: number, step: (attempt: number) => Promise<T | Error | undefined>) {
  for (let attempt = 0; ; attempt++) {
    const answer = await step(attempt).catch(() => undefined)
    if (answer !== undefined) return answer
    if (Date.now() > giveUpAt) return undefined
    await new Promise((r) => setTimeout(r, Math.min(2_000, 200 * (attempt + 1))))
  }
}

async function waitUntil(giveUpAt: number, check: () => Promise<boolean>): Promise<boolean> {
  for (;;) {
    if (await check().catch(() => false)) return true
    if (Date.now() > giveUpAt) return false
    await new Promise((r) => setTimeout(r, 300))
  }
}
