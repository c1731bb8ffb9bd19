import { type Address, getContractAddress } from 'viem'
import type { GoldMinterDomainParameters } from '@/lib/chain/typedData'
import { ANVIL_DEFAULT_CHAIN_ID, ANVIL_DEV_ADDRESS } from '@/scripts/stack/anvil'

// Dev only: where a fresh dev chain has GoldMinter. The stack and startChainFixture deploy GoldToken and
// GoldMinter from anvil's first dev account as its first two transactions
// (scripts/stack/deployToken.ts), so every fresh fixture has them at the same addresses.

export const DEV_TOKEN_ADDRESS: Address = getContractAddress({ from: ANVIL_DEV_ADDRESS, nonce: 0n })
export const DEV_MINTER_ADDRESS: Address = getContractAddress({ from: ANVIL_DEV_ADDRESS, nonce: 1n })

/** The EIP-712 domain of the test chain's GoldMinter. */
export const DEV_MINTER_DOMAIN: GoldMinterDomainParameters = {
  chainId: ANVIL_DEFAULT_CHAIN_ID,
  verifyingContract: DEV_MINTER_ADDRESS,
}
