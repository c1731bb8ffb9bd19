import type { Page } from '@playwright/test'
import type { LocalAccount } from 'viem'
import { createTestWallet } from '../helpers/createTestWallet'

/** The name of the function the page's stand-in wallet forwards its requests to (Node side). */
const BRIDGE = '__mintdeskTestWallet'

/**
 * Installs a browser wallet in `page` before any of its scripts run: a `window.ethereum`
 * whose `request` forwards to Node (page.exposeFunction), where a viem local account
 * (`account`, e.g. devKey('approver')) answers eth_requestAccounts, eth_signTypedData_v4
 * and personal_sign as a wallet extension does. Call it before the first goto. Returns
 * the methods the page asked for, in order.
 */
export async function installTestWallet(page: Page, account: LocalAccount): Promise<string[]> {
  const wallet = createTestWallet({ account })
  // the page sends any method name; the test wallet answers its three and refuses the rest (4200)
  await page.exposeFunction(BRIDGE, (method: string, params: unknown) =>
    wallet.provider.request({ method, params } as never),
  )
  await page.addInitScript((bridge: string) => {
    // the bridge is a function exposed on window by Playwright, looked up at each request
    const scope = window as unknown as Record<string, (method: string, params: unknown) => Promise<unknown>>
    Object.defineProperty(window, 'ethereum', {
      value: {
        request: ({ method, params }: { method: string; params?: unknown }) => scope[bridge](method, params ?? []),
      },
    })
  }, BRIDGE)
  return wallet.calls
}
