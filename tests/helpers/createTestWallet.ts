import { type EIP1193Provider, hexToString, type LocalAccount } from 'viem'
import { toViemTypedData } from '@/lib/web/signing/toViemTypedData'

export type TestWalletOptions = {
  account: LocalAccount
  /** answer every signing request with EIP-1193's 4001, as a person clicking "Reject" */
  reject?: boolean
}

/** What the test wallet saw: each method asked, in order. */
export type TestWallet = { provider: EIP1193Provider; calls: string[] }

/**
 * TEST ONLY: a stand-in for a browser wallet extension (a third party), signing with a
 * viem local account: eth_requestAccounts, eth_signTypedData_v4 (JSON typed data) and
 * personal_sign (hex text), as MetaMask answers them; anything else is 4200.
 */
export function createTestWallet({ account, reject = false }: TestWalletOptions): TestWallet {
  const calls: string[] = []
  const request = async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    calls.push(method)
    const args = Array.isArray(params) ? params : []
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account.address]
    if (reject) throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
    if (method === 'eth_signTypedData_v4') return account.signTypedData(toViemTypedData(JSON.parse(String(args[1]))))
    if (method === 'personal_sign') return account.signMessage({ message: hexToString(args[0] as `0x${string}`) })
    throw Object.assign(new Error(`${method} is not supported`), { code: 4200 })
  }
  // the wallet's request answers the methods the wallet layer uses; viem's type lists every RPC method
  return { provider: { request } as unknown as EIP1193Provider, calls }
}
