import { type Address, getAddress } from 'viem'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import type { MinterReader } from '@/lib/web/approvals/MinterReader'
import type { ApiComplianceChain } from './apiTypes'

/**
 * The token's compliance state as the chain says (never the desk's rows): GoldToken's paused(); its frozen
 * accounts, found from its Frozen events (every account one ever named, at the block of its latest freeze) and
 * each verified with isFrozen now, so an account unfrozen since is not listed; GoldMinter's complianceApprovals.
 * Reads the token's events from block 0 of the chain.
 */
export async function readComplianceChainState(p: { minter: MinterReader }): Promise<ApiComplianceChain> {
  const { client } = p.minter
  const tokenAddress = await p.minter.tokenAddress()
  const token = { address: tokenAddress, abi: goldTokenAbi } as const
  const [paused, required, frozenLogs] = await Promise.all([
    client.readContract({ ...token, functionName: 'paused' }),
    p.minter.complianceApprovals(),
    client.getContractEvents({ ...token, eventName: 'Frozen', fromBlock: 0n, toBlock: 'latest' }),
  ])
  const lastFrozen = new Map<Address, bigint>()
  for (const log of frozenLogs) {
    const account = log.args.account
    if (account && log.blockNumber !== null) lastFrozen.set(getAddress(account), log.blockNumber)
  }
  const accounts = [...lastFrozen.keys()]
  const still = await Promise.all(
    accounts.map((account) => client.readContract({ ...token, functionName: 'isFrozen', args: [account] })),
  )
  return {
    tokenAddress: getAddress(tokenAddress),
    paused,
    frozen: accounts
      .filter((_, i) => still[i])
      .map((address) => ({ address, frozenAtBlock: String(lastFrozen.get(address) ?? 0n) }))
      .sort((a, b) => a.address.localeCompare(b.address)),
    required,
  }
}
