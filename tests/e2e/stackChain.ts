import { type Address, createPublicClient, createWalletClient, defineChain, type Hex, http, parseAbi } from 'viem'
import { devAccountAt } from '../../lib/keys/devKeys'
import { ozToWei } from '../../lib/money/ozToWei'
import { expect } from './fixtures'
import { RECIPIENT } from './requestMint'

/** What tests/e2e/globalSetup.ts gives the specs of the stack it booted (E2E_STACK_ENV). */
export type StackEnv = {
  RPC_URL: string
  CHAIN_ID: string
  TOKEN_ADDRESS: Address
  MINTER_ADDRESS: Address
  METRICS_TOKEN: string
}

export function stackEnv(): StackEnv {
  const raw = process.env.E2E_STACK_ENV
  if (!raw) throw new Error('E2E_STACK_ENV is not set: run through playwright.config.ts')
  return JSON.parse(raw) as StackEnv
}

/** The stack's anvil chain, for viem clients of the specs. */
export function stackChain() {
  const env = stackEnv()
  return defineChain({
    id: Number(env.CHAIN_ID),
    name: 'e2e',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [env.RPC_URL] } },
  })
}

const erc20 = parseAbi(['function transfer(address to, uint256 amount) returns (bool)'])

/**
 * The holder of the specs' mints (anvil account 1, RECIPIENT: index 1 of the public
 * mnemonic) sends `oz` tokens to `to`, mined before it returns.
 */
export async function sendTokens({ to, oz }: { to: Address; oz: string }): Promise<Hex> {
  const env = stackEnv()
  const chain = stackChain()
  const holder = devAccountAt(1)
  expect(holder.address).toBe(RECIPIENT)
  const wallet = createWalletClient({ account: holder, chain, transport: http(env.RPC_URL) })
  const reader = createPublicClient({ chain, transport: http(env.RPC_URL) })
  const hash = await wallet.writeContract({
    address: env.TOKEN_ADDRESS,
    abi: erc20,
    functionName: 'transfer',
    args: [to, ozToWei(oz)],
  })
  const receipt = await reader.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return hash
}
