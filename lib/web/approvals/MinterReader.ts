import type { Address, PublicClient } from 'viem'
import { vaultId } from '@/lib/chain/bars'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import type { GoldMinterDomainParameters } from '@/lib/chain/typedData'

/** What the web reads from GoldMinter to judge a signature: the chain's word, never a row's. */
export type MinterReader = {
  domain: GoldMinterDomainParameters
  client: PublicClient
  requiredApprovals(amountWei: bigint): Promise<number>
  isApprover(address: Address): Promise<boolean>
  isCustodian(address: Address): Promise<boolean>
  /** whether the key is one of GoldMinter's admins, who sign its control changes */
  isAdmin(address: Address): Promise<boolean>
  /** how many admins' signatures GoldMinter asks of a control change */
  adminThreshold(): Promise<number>
  /** the custodian the vault is bound to on chain (the zero address: none yet) */
  vaultCustodian(vault: string): Promise<Address>
  /** GoldMinter's redemption address: holders redeem by sending tokens there, burns take them from there */
  redemptionAddress(): Promise<Address>
  /** whether the token has frozen the account (GoldToken.isFrozen, through GoldMinter's token) */
  isFrozen(address: Address): Promise<boolean>
  /** how many approvers' signatures GoldMinter asks of a freeze, unfreeze, pause or unpause */
  complianceApprovals(): Promise<number>
  /** the GoldToken GoldMinter mints, freezes and pauses */
  tokenAddress(): Promise<Address>
}

/** A MinterReader over a read-only chain client (the web never signs or sends). */
export function createMinterReader(p: { client: PublicClient; chainId: number; minterAddress: Address }): MinterReader {
  const minter = { address: p.minterAddress, abi: goldMinterAbi } as const
  // GoldMinter's token is immutable: read once
  let token: Promise<Address> | undefined
  return {
    domain: { chainId: p.chainId, verifyingContract: p.minterAddress },
    client: p.client,
    requiredApprovals: async (amountWei) =>
      Number(await p.client.readContract({ ...minter, functionName: 'requiredApprovals', args: [amountWei] })),
    isApprover: (address) => p.client.readContract({ ...minter, functionName: 'isApprover', args: [address] }),
    isCustodian: (address) => p.client.readContract({ ...minter, functionName: 'isCustodian', args: [address] }),
    isAdmin: (address) => p.client.readContract({ ...minter, functionName: 'isAdmin', args: [address] }),
    adminThreshold: async () => Number(await p.client.readContract({ ...minter, functionName: 'adminThreshold' })),
    vaultCustodian: async (vault) =>
      (await p.client.readContract({ ...minter, functionName: 'vaultReserve', args: [vaultId(vault)] })).custodian,
    redemptionAddress: () => p.client.readContract({ ...minter, functionName: 'redemptionAddress' }),
    isFrozen: async (address) => {
      token ??= p.client.readContract({ ...minter, functionName: 'token' })
      token.catch(() => {
        token = undefined
      })
      return p.client.readContract({
        address: await token,
        abi: goldTokenAbi,
        functionName: 'isFrozen',
        args: [address],
      })
    },
    complianceApprovals: async () =>
      Number((await p.client.readContract({ ...minter, functionName: 'approvalRule' })).complianceApprovals),
    tokenAddress: () => p.client.readContract({ ...minter, functionName: 'token' }),
  }
}
