import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { AdminAccessProvider } from '@/components/admin/AdminAccess'
import type { ApiPendingNonce } from '@/lib/web/admin/apiTypes'
import { SignerNonces } from './SignerNonces'

vi.mock('next/navigation', () => ({
  useRouter: () => ({ push: () => {}, replace: () => {}, refresh: () => {} }),
  usePathname: () => '/admin',
  useSearchParams: () => new URLSearchParams(),
}))

const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const mint: ApiPendingNonce = {
  nonce: 7,
  state: 'signed',
  use: 'mint',
  operation: 'mint',
  operationId: '5f0c3a8e-3d3f-4e3a-9d0a-0c1f3b0d6a11',
  operationStatus: 'submitted',
  hash: `0x${'ab'.repeat(32)}`,
  maxFeePerGas: '30000000000',
  maxPriorityFeePerGas: '1000000000',
}
const reserved: ApiPendingNonce = {
  ...mint,
  nonce: 8,
  state: 'reserved',
  operationStatus: 'pending',
  hash: null,
  maxFeePerGas: null,
  maxPriorityFeePerGas: null,
}

/** The server's HTML, without React's text separators (`<!-- -->`) */
function render(canChange: boolean, pendingNonces: ApiPendingNonce[] = [mint, reserved]): string {
  const client = new QueryClient()
  const html = renderToString(
    createElement(
      QueryClientProvider,
      { client },
      createElement(AdminAccessProvider, {
        canChange,
        children: createElement(SignerNonces, { signer: { address, pendingNonces }, keySigners: ['wallet', 'dev'] }),
      }),
    ),
  )
  return html.replaceAll('<!-- -->', '')
}

describe("a signer's pending nonces on /admin", () => {
  it('for an admin: speed up where a transaction is signed, cancel a pending mint with either key, one resync', () => {
    const html = render(true)
    expect(html).toContain('Speed up nonce 7')
    expect(html).not.toContain('Speed up nonce 8')
    expect(html).toContain('Cancel nonce 7<')
    expect(html).toContain('Cancel nonce 7 with the dev key')
    expect(html).toContain('Cancel nonce 8<')
    expect(html).toContain('30 gwei / 1 gwei')
    expect(html.match(/Resync nonces of/g)).toHaveLength(1)
  })

  it('a gap fill or a confirmed mint is not offered a cancel', () => {
    const html = render(true, [
      { ...mint, operation: null, use: 'gap_fill', operationStatus: null },
      { ...mint, nonce: 9, operationStatus: 'confirmed' },
    ])
    expect(html).toContain('gap fill')
    expect(html).not.toContain('Cancel nonce')
    expect(html).toContain('Speed up nonce 9')
  })

  it('for an auditor: the list, and no button', () => {
    const html = render(false)
    expect(html).toContain('Pending nonces of')
    expect(html).toContain('submitted')
    expect(html).not.toContain('<button')
  })
})
