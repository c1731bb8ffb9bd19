import type postgres from 'postgres'
import { type Address, encodeFunctionData, type Hex, type LocalAccount, type PublicClient } from 'viem'
import { goldMinterAbi } from '../../lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '../../lib/chain/goldTokenAbi.generated'
import { prepareMint } from '../prepareMint'
import { backBaselineMints } from './backBaselineMints'
import { buildBaselineCalls } from './buildBaselineCalls'
import { runRawLimit } from './runRawLimit'

export type SeedRedemptionDepositsParameters = {
  chain: PublicClient
  rpcUrl: string
  chainId: number
  tokenAddress: Address
  minterAddress: Address
  /** accounts with gas money (anvil's dev accounts): they receive the mints, relay them and send the deposits */
  holders: readonly LocalAccount[]
  /** mints, and deposits: one of each per redemption to come */
  count: number
  /** names the bench vault and its bars (backBaselineMints) */
  label: string
}

export type SeedRedemptionDepositsReturnType = {
  /** the confirmed mint orders whose bars the redemptions take, one 400 oz bar each */
  orderIds: string[]
  /** the sum the holders sent to the redemption address (what the burns take off the supply) */
  depositedWei: bigint
}

/**
 * The burn drain's setup, not measured: `count` confirmed mints to the holders as the chain baselines seed theirs
 * (backBaselineMints: one 400 oz bar each on a custodian-signed list, the dev approver's signature), relayed by the
 * holders themselves (GoldMinter.attestAndMint built as the worker builds it; the first alone, as it attests the
 * list), then each mint's amount sent back by its holder to GoldMinter's redemption address as a plain
 * GoldToken.transfer. Both batches go out signed beforehand and sent raw with explicit nonces (runRawLimit), every
 * holder's in parallel, and are waited for until mined.
 */
export async function seedRedemptionDeposits(
  sql: postgres.Sql,
  p: SeedRedemptionDepositsParameters,
): Promise<SeedRedemptionDepositsReturnType> {
  const [relayer] = p.holders
  if (!relayer || p.count <= 0) return { orderIds: [], depositedWei: 0n }
  const backed = await backBaselineMints(sql, {
    label: p.label,
    mints: p.count,
    recipients: p.holders.map((h) => h.address),
    domain: { chainId: p.chainId, verifyingContract: p.minterAddress },
  })
  const [attesting, ...calls] = await buildBaselineCalls(sql, {
    chain: p.chain,
    chainId: p.chainId,
    minterAddress: p.minterAddress,
    orderIds: backed.orderIds,
  })
  if (!attesting) throw new Error('seedRedemptionDeposits: no mint call')
  const send = async (accounts: readonly LocalAccount[], data: readonly Hex[], gas: bigint, to?: Address) => {
    if (data.length === 0) return
    await runRawLimit({
      chain: p.chain,
      rpcUrl: p.rpcUrl,
      chainId: p.chainId,
      minterAddress: p.minterAddress,
      to,
      accounts,
      calls: data,
      gas,
    })
  }
  const gasOf = async (data: Hex) =>
    (await prepareMint(p.chain, { minterAddress: p.minterAddress, from: relayer.address, data })).gas
  await send([relayer], [attesting], await gasOf(attesting))
  if (calls[0]) await send(p.holders, calls, await gasOf(calls[0]))

  // each holder sends back exactly what it was minted, one transfer per mint
  const orders = await sql<{ to_address: string; amount_wei: string }[]>`
    select to_address, amount_wei::text as amount_wei from mint_orders
    where id = any(${backed.orderIds}::uuid[]) order by id`
  const redemptionAddress = await p.chain.readContract({
    address: p.minterAddress,
    abi: goldMinterAbi,
    functionName: 'redemptionAddress',
  })
  const transfer = (amount: bigint) =>
    encodeFunctionData({ abi: goldTokenAbi, functionName: 'transfer', args: [redemptionAddress, amount] })
  const byHolder = p.holders.map((h) =>
    orders.filter((o) => o.to_address.toLowerCase() === h.address.toLowerCase()).map((o) => BigInt(o.amount_wei)),
  )
  const firstAmount = byHolder.find((a) => a.length > 0)?.[0]
  if (firstAmount === undefined) throw new Error('seedRedemptionDeposits: no mint reached a holder')
  // the first transfer into an empty redemption address costs the most (a new balance slot): every transfer gets that
  const firstHolder = p.holders[byHolder.findIndex((a) => a.length > 0)] as LocalAccount
  const estimate = await p.chain.estimateGas({
    account: firstHolder.address,
    to: p.tokenAddress,
    data: transfer(firstAmount),
  })
  await Promise.all(
    p.holders.map((h, i) => send([h], (byHolder[i] ?? []).map(transfer), (estimate * 12n) / 10n, p.tokenAddress)),
  )
  return { orderIds: backed.orderIds, depositedWei: byHolder.flat().reduce((a, b) => a + b, 0n) }
}
