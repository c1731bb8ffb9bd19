import {
  type Address,
  createWalletClient,
  defineChain,
  type Hash,
  type Hex,
  http,
  isAddressEqual,
  keccak256,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChainClient } from '../../lib/chain/createChainClient'
import { goldMinterAbi } from '../../lib/chain/goldMinterAbi.generated'
import { goldTokenAbi } from '../../lib/chain/goldTokenAbi.generated'
import { devAccountAt } from '../../lib/keys/devKeys'
import { DeployTokenError } from '../errors/stack'
import { deployGoldMinter, devGoldMinterSetup, type GoldMinterSetup } from './deployGoldMinter'

/**
 * Dev-only deployment for the local stack, the bench and the tests: GoldToken with
 * GoldMinter as the sole holder of its roles (scripts/stack/deployGoldMinter.ts, the dev
 * setup: approvers 10 and 11, admins 13 and 14, custodian 12 registered), and gas money
 * for every KMS signer, which holds no role: the signers only relay what the approvers
 * signed. Production deploys are not done from here.
 */

export const MINTER_ROLE_NAME = 'MINTER_ROLE'
const DEFAULT_FUND_WEI = 100n * 10n ** 18n
const TRANSFER_GAS = 21_000n
/** the dev desk's redemption address: index 16 of the dev mnemonic */
const DEV_REDEMPTION_INDEX = 16
/** the dev rate limit: a bucket of 1,000,000,000 oz refilled at 1,000,000 oz a second (tests mint a lot) */
const DEV_RATE_CAPACITY = 10n ** 9n * 10n ** 18n
const DEV_RATE_REFILL = 10n ** 6n * 10n ** 18n

export type DeployTokenParameters = {
  rpcUrl: string
  chainId: number
  /** pays for the deployments; holds no role afterwards */
  deployerPrivateKey: Hex
  /** the KMS signers' addresses: each gets fundWei, and no role */
  signerAddresses: readonly Address[]
  /** gas money per signer, 100 ETH by default */
  fundWei?: bigint
  /** changes to the dev setup (a test's own rate limit, say) */
  setup?: Partial<GoldMinterSetup>
}

export type DeployTokenReturnType = { tokenAddress: Address; minterAddress: Address }

export type EnsureTokenParameters = DeployTokenParameters & {
  /** a token and minter deployed by an earlier run of the stack */
  tokenAddress?: Address | undefined
  minterAddress?: Address | undefined
}

export type EnsureTokenReturnType = DeployTokenReturnType & { deployed: boolean }

/** The dev GoldMinter setup the stack deploys. */
export function devStackSetup(overrides: Partial<GoldMinterSetup> = {}): GoldMinterSetup {
  return {
    ...devGoldMinterSetup({
      redemptionAddress: devAccountAt(DEV_REDEMPTION_INDEX).address,
      rateCapacity: DEV_RATE_CAPACITY,
      rateRefillPerSecond: DEV_RATE_REFILL,
    }),
    ...overrides,
  }
}

/** Deploys GoldToken + GoldMinter with the dev setup and funds every signer; waits for all receipts. */
export async function deployToken(params: DeployTokenParameters): Promise<DeployTokenReturnType> {
  const { rpcUrl, chainId, deployerPrivateKey, signerAddresses, fundWei = DEFAULT_FUND_WEI } = params
  const { publicClient, walletClient } = clients({ rpcUrl, chainId, deployerPrivateKey })
  const deployed = await deployGoldMinter({ publicClient, deployer: walletClient, setup: devStackSetup(params.setup) })
  const nonce = await publicClient.getTransactionCount({ address: walletClient.account.address, blockTag: 'pending' })
  await waitAll(
    publicClient,
    await fund({ walletClient, signerAddresses, amounts: signerAddresses.map(() => fundWei), nonce }),
  )
  for (const address of [deployed.tokenAddress, deployed.minterAddress]) {
    const code = await publicClient.getCode({ address })
    if (!code || code === '0x') throw new DeployTokenError(`no code at ${address} after deployment`)
  }
  return deployed
}

/**
 * For restarts of the local stack: reuses `tokenAddress` and `minterAddress` when both
 * have code and the minter holds the token's MINTER_ROLE (topping signers up to
 * fundWei); otherwise deploys both again.
 */
export async function ensureToken(params: EnsureTokenParameters): Promise<EnsureTokenReturnType> {
  const { rpcUrl, chainId, deployerPrivateKey, signerAddresses, fundWei = DEFAULT_FUND_WEI } = params
  const { tokenAddress, minterAddress } = params
  const fresh = async () => ({ ...(await deployToken(params)), deployed: true })
  if (!tokenAddress || !minterAddress) return fresh()

  const { publicClient, walletClient } = clients({ rpcUrl, chainId, deployerPrivateKey })
  const [tokenCode, minterCode] = await Promise.all([
    publicClient.getCode({ address: tokenAddress }),
    publicClient.getCode({ address: minterAddress }),
  ])
  if (!tokenCode || tokenCode === '0x' || !minterCode || minterCode === '0x') return fresh()
  try {
    const minterRole = await publicClient.readContract({
      address: tokenAddress,
      abi: goldTokenAbi,
      functionName: 'MINTER_ROLE',
    })
    const [holds, token] = await Promise.all([
      publicClient.readContract({
        address: tokenAddress,
        abi: goldTokenAbi,
        functionName: 'hasRole',
        args: [minterRole, minterAddress],
      }),
      publicClient.readContract({ address: minterAddress, abi: goldMinterAbi, functionName: 'token' }),
    ])
    if (minterRole !== roleHash(MINTER_ROLE_NAME) || !holds || !isAddressEqual(token, tokenAddress)) return fresh()
  } catch {
    // some other contract lives there (a different chain state): start over
    return fresh()
  }

  const nonce = await publicClient.getTransactionCount({ address: walletClient.account.address, blockTag: 'pending' })
  const balances = await Promise.all(signerAddresses.map((address) => publicClient.getBalance({ address })))
  const low = signerAddresses
    .map((address, i) => ({ address, topUp: fundWei - balances[i] }))
    .filter((x) => x.topUp > fundWei / 2n)
  await waitAll(
    publicClient,
    await fund({
      walletClient,
      signerAddresses: low.map((x) => x.address),
      amounts: low.map((x) => x.topUp),
      nonce,
    }),
  )
  return { tokenAddress, minterAddress, deployed: false }
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
  return { publicClient, walletClient }
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
