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
import minterArtifact from '@/contracts/GoldMinter.json' with { type: 'json' }
import { goldMinterAbi } from '@/lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '@/lib/chain/goldTokenAbi.generated'
import { type ApprovalRule, DEV_APPROVAL_RULE } from '@/lib/chain/typedData'
import { DEV_MNEMONIC, devKey } from '@/lib/keys/devKeys'
import { readGoldTokenArtifact } from '@/scripts/stack/goldTokenArtifact'

// Dev only (the local stack, the bench and the tests): GoldToken with GoldMinter
// (contracts/GoldMinter.sol) as the sole holder of its roles, and the dev keys (the public
// test mnemonic's, lib/keys/devKeys.ts) that sign for it.

export { DEV_MNEMONIC }

/** The dev signing keys (lib/keys/devKeys.ts), as accounts that sign. */
export const devKeys = {
  approver: devKey('approver'),
  approver2: devKey('approver2'),
  custodian: devKey('custodian'),
  admin: devKey('admin'),
  admin2: devKey('admin2'),
} as const

export type GoldMinterSetup = {
  approvers: readonly Address[]
  approvalRule: ApprovalRule
  admins: readonly Address[]
  adminThreshold: bigint
  /** the rate limit's bucket (wei) and how fast it refills (wei per second) */
  rateCapacity: bigint
  rateRefillPerSecond: bigint
  /** the registered custodian keys (a vault binds to the one whose list is attested first) */
  custodians: readonly Address[]
  redemptionAddress: Address
}

/** The dev setup: approvers 10 and 11 (DEV_APPROVAL_RULE), admins 13 and 14 (2 of 2), custodian 12. */
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
