import {
  type Address,
  createWalletClient,
  defineChain,
  getContractAddress,
  type Hash,
  type Hex,
  http,
  isAddressEqual,
  keccak256,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChainClient } from '../../lib/chain/createChainClient'
import { goldTokenAbi } from '../../lib/chain/goldTokenAbi.generated'
import { DeployTokenError } from '../errors/stack'
import { readGoldTokenArtifact } from './goldTokenArtifact'

/**
 * Dev-only deployment of GoldToken for the local stack and the tests: the deployer
 * (anvil's first dev account) becomes admin and freezer, every signer gets MINTER_ROLE
 * and gas money. Production deploys are not done from here.
 */

export const MINTER_ROLE_NAME = 'MINTER_ROLE'
const DEFAULT_FUND_WEI = 100n * 10n ** 18n
/** fixed gas for the transactions sent before the token exists (no estimate possible) */
const GRANT_ROLE_GAS = 120_000n
const TRANSFER_GAS = 21_000n

export type DeployTokenParameters = {
  rpcUrl: string
  chainId: number
  /** pays for everything and becomes DEFAULT_ADMIN_ROLE + FREEZER_ROLE */
  deployerPrivateKey: Hex
  /** the KMS signers' addresses: each gets MINTER_ROLE and fundWei */
  signerAddresses: readonly Address[]
  /** gas money per signer, 100 ETH by default */
  fundWei?: bigint
}

export type DeployTokenReturnType = { tokenAddress: Address }

export type EnsureTokenParameters = DeployTokenParameters & {
  /** a token deployed by an earlier run of the stack */
  tokenAddress?: Address | undefined
}

export type EnsureTokenReturnType = { tokenAddress: Address; deployed: boolean }

/**
 * Deploys GoldToken, grants MINTER_ROLE to and funds every signer, and waits for all
 * receipts. All transactions go out at once with consecutive nonces (the token address
 * is known in advance from the deployer's nonce), so with a block time this costs one
 * block, not one per transaction.
 */
export async function deployToken(params: DeployTokenParameters): Promise<DeployTokenReturnType> {
  const { rpcUrl, chainId, deployerPrivateKey, signerAddresses, fundWei = DEFAULT_FUND_WEI } = params
  const { publicClient, walletClient, deployer } = clients({ rpcUrl, chainId, deployerPrivateKey })
  const { bytecode } = readGoldTokenArtifact()

  let nonce = await publicClient.getTransactionCount({ address: deployer.address, blockTag: 'pending' })
  const tokenAddress = getContractAddress({ from: deployer.address, nonce: BigInt(nonce) })
  const minterRole = roleHash(MINTER_ROLE_NAME)

  const hashes: Hash[] = []
  hashes.push(
    await walletClient.deployContract({ abi: goldTokenAbi, bytecode, args: [deployer.address], nonce: nonce++ }),
  )
  for (const signer of signerAddresses) {
    hashes.push(
      await walletClient.writeContract({
        address: tokenAddress,
        abi: goldTokenAbi,
        functionName: 'grantRole',
        args: [minterRole, signer],
        nonce: nonce++,
        gas: GRANT_ROLE_GAS,
      }),
    )
  }
  hashes.push(...(await fund({ walletClient, signerAddresses, amounts: signerAddresses.map(() => fundWei), nonce })))
  await waitAll(publicClient, hashes)

  const code = await publicClient.getCode({ address: tokenAddress })
  if (!code || code === '0x') throw new DeployTokenError(`no code at ${tokenAddress} after deployment`)
  return { tokenAddress }
}

/**
 * For restarts of the local stack: reuses `tokenAddress` when it has code, is a
 * GoldToken and the deployer is its admin (granting MINTER_ROLE to any signer that lacks
 * it and topping signers up to fundWei); otherwise deploys a new token.
 */
export async function ensureToken(params: EnsureTokenParameters): Promise<EnsureTokenReturnType> {
  const { rpcUrl, chainId, deployerPrivateKey, signerAddresses, fundWei = DEFAULT_FUND_WEI, tokenAddress } = params
  if (!tokenAddress) return { ...(await deployToken(params)), deployed: true }

  const { publicClient, walletClient, deployer } = clients({ rpcUrl, chainId, deployerPrivateKey })
  const code = await publicClient.getCode({ address: tokenAddress })
  if (!code || code === '0x') return { ...(await deployToken(params)), deployed: true }

  let minterRole: Hex
  let isAdmin: boolean
  try {
    minterRole = await publicClient.readContract({
      address: tokenAddress,
      abi: goldTokenAbi,
      functionName: 'MINTER_ROLE',
    })
    const adminRole = await publicClient.readContract({
      address: tokenAddress,
      abi: goldTokenAbi,
      functionName: 'DEFAULT_ADMIN_ROLE',
    })
    isAdmin = await publicClient.readContract({
      address: tokenAddress,
      abi: goldTokenAbi,
      functionName: 'hasRole',
      args: [adminRole, deployer.address],
    })
  } catch {
    // some other contract lives there (a different chain state): start over
    return { ...(await deployToken(params)), deployed: true }
  }
  if (minterRole !== roleHash(MINTER_ROLE_NAME)) return { ...(await deployToken(params)), deployed: true }

  const missing: Address[] = []
  for (const signer of signerAddresses) {
    const has = await publicClient.readContract({
      address: tokenAddress,
      abi: goldTokenAbi,
      functionName: 'hasRole',
      args: [minterRole, signer],
    })
    if (!has) missing.push(signer)
  }
  if (missing.length > 0 && !isAdmin) return { ...(await deployToken(params)), deployed: true }

  let nonce = await publicClient.getTransactionCount({ address: deployer.address, blockTag: 'pending' })
  const hashes: Hash[] = []
  for (const signer of missing) {
    hashes.push(
      await walletClient.writeContract({
        address: tokenAddress,
        abi: goldTokenAbi,
        functionName: 'grantRole',
        args: [minterRole, signer],
        nonce: nonce++,
      }),
    )
  }
  const balances = await Promise.all(signerAddresses.map((address) => publicClient.getBalance({ address })))
  const low = signerAddresses
    .map((address, i) => ({ address, topUp: fundWei - balances[i] }))
    .filter((x) => x.topUp > fundWei / 2n)
  hashes.push(
    ...(await fund({
      walletClient,
      signerAddresses: low.map((x) => x.address),
      amounts: low.map((x) => x.topUp),
      nonce,
    })),
  )
  await waitAll(publicClient, hashes)
  return { tokenAddress, deployed: false }
}

function clients({
  rpcUrl,
  chainId,
  deployerPrivateKey,
}: {
  rpcUrl: string
  chainId: number
  deployerPrivateKey: Hex
}) {
  const deployer = privateKeyToAccount(deployerPrivateKey)
  const publicClient = createChainClient({ rpcUrl, chainId, pollingMs: 50 })
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const walletClient = createWalletClient({ account: deployer, chain, transport: http(rpcUrl, { retryCount: 0 }) })
  return { publicClient, walletClient, deployer }
}

async function fund({
  walletClient,
  signerAddresses,
  amounts,
  nonce,
}: {
  walletClient: ReturnType<typeof clients>['walletClient']
  signerAddresses: readonly Address[]
  amounts: readonly bigint[]
  nonce: number
}): Promise<Hash[]> {
  const hashes: Hash[] = []
  for (const [i, to] of signerAddresses.entries()) {
    if (amounts[i] <= 0n || isAddressEqual(to, walletClient.account.address)) continue
    hashes.push(await walletClient.sendTransaction({ to, value: amounts[i], nonce: nonce++, gas: TRANSFER_GAS }))
  }
  return hashes
}

async function waitAll(publicClient: ReturnType<typeof createChainClient>, hashes: readonly Hash[]): Promise<void> {
  const receipts = await Promise.all(
    hashes.map((hash) => publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 })),
  )
  const failed = receipts.filter((r) => r.status !== 'success')
  if (failed.length > 0)
    throw new DeployTokenError(`deployment transactions reverted: ${failed.map((r) => r.transactionHash).join(', ')}`)
}

function roleHash(name: string): Hex {
  return keccak256(toHex(name))
}
