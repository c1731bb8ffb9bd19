import {
  type Account,
  type Address,
  type Chain,
  getContractAddress,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { vaultId } from '@/contracts/bars'
import minterArtifact from '@/contracts/GoldMinter.json' with { type: 'json' }
import { type ApprovalRule, DEV_APPROVAL_RULE } from '@/contracts/typedData'
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { readGoldTokenArtifact } from '@/scripts/stack/goldTokenArtifact'

// TEST ONLY: GoldToken with GoldMinter (contracts/GoldMinter.sol) as the sole holder of its
// roles, and the dev keys (the public test mnemonic's) that sign for it.

/** The public test mnemonic: dev keys only, production refuses them. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/** The dev signing keys, by their index on m/44'/60'/0'/0/i. */
export const devKeys = {
  approver: mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 10 }),
  approver2: mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 11 }),
  custodian: mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 12 }),
  admin: mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 13 }),
  admin2: mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 14 }),
} as const

export type GoldMinterSetup = {
  approvers: readonly Address[]
  approvalRule: ApprovalRule
  admins: readonly Address[]
  adminThreshold: bigint
  /** the rate limit's bucket (wei) and how fast it refills (wei per second) */
  rateCapacity: bigint
  rateRefillPerSecond: bigint
  /** vaultId(name) of each vault, and its custodian key, pairwise */
  vaults: readonly Hex[]
  custodians: readonly Address[]
  redemptionAddress: Address
}

/** The dev setup: approvers 10 and 11 (DEV_APPROVAL_RULE), admins 13 and 14 (2 of 2), custodian 12 for LDN-1. */
export function devGoldMinterSetup(p: {
  redemptionAddress: Address
  rateCapacity?: bigint
  rateRefillPerSecond?: bigint
}): GoldMinterSetup {
  return {
    approvers: [devKeys.approver.address, devKeys.approver2.address],
    approvalRule: DEV_APPROVAL_RULE,
    admins: [devKeys.admin.address, devKeys.admin2.address],
    adminThreshold: 2n,
    rateCapacity: p.rateCapacity ?? 100_000n * 10n ** 18n,
    rateRefillPerSecond: p.rateRefillPerSecond ?? 10n ** 18n,
    vaults: [vaultId('LDN-1')],
    custodians: [devKeys.custodian.address],
    redemptionAddress: p.redemptionAddress,
  }
}

export type DeployGoldMinterParameters = {
  publicClient: PublicClient
  /** pays for the two deployments and holds no role afterwards */
  deployer: WalletClient<Transport, Chain, Account>
  setup: GoldMinterSetup
}

export type DeployGoldMinterReturnType = { tokenAddress: Address; minterAddress: Address }

/**
 * Deploys GoldToken with GoldMinter's address (known from the deployer's next nonce but
 * one) as its admin, then GoldMinter, whose constructor takes the token's roles and
 * renounces the admin role: no key holds a role on the token at any point.
 */
export async function deployGoldMinter({
  publicClient,
  deployer,
  setup,
}: DeployGoldMinterParameters): Promise<DeployGoldMinterReturnType> {
  const nonce = await publicClient.getTransactionCount({ address: deployer.account.address, blockTag: 'pending' })
  const tokenAddress = getContractAddress({ from: deployer.account.address, nonce: BigInt(nonce) })
  const minterAddress = getContractAddress({ from: deployer.account.address, nonce: BigInt(nonce + 1) })

  const tokenHash = await deployer.deployContract({
    abi: goldTokenAbi,
    bytecode: readGoldTokenArtifact().bytecode,
    args: [minterAddress],
    nonce,
  })
  const minterHash = await deployer.deployContract({
    abi: goldMinterAbi,
    bytecode: minterArtifact.bytecode as Hex, // the committed artifact's creation code
    args: [
      tokenAddress,
      {
        ...setup,
        approvers: [...setup.approvers],
        admins: [...setup.admins],
        vaults: [...setup.vaults],
        custodians: [...setup.custodians],
      },
    ],
    nonce: nonce + 1,
    gas: 8_000_000n,
  })
  for (const hash of [tokenHash, minterHash]) {
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`deployment ${hash} reverted`)
  }
  return { tokenAddress, minterAddress }
}
