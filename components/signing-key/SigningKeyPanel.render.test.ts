import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { ApiSigningKeys } from '@/lib/web/signing/apiTypes'
import type { KeySignerKind } from '@/lib/web/signing/availableSigners'
import { SigningKeyPanel } from './SigningKeyPanel'
import { signingKeysQueryKey } from './signingKeyApi'

// Server-render smoke tests of the signing-key page's panel, its answer in the query cache.

function render(signers: readonly KeySignerKind[], answer?: ApiSigningKeys): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  if (answer) client.setQueryData(signingKeysQueryKey, answer)
  return renderToString(createElement(QueryClientProvider, { client }, createElement(SigningKeyPanel, { signers })))
}

const message = 'mintdesk: bind this key to approver@mintdesk.local'

describe('the signing-key panel', () => {
  it('lists the keys bound to the user, shows the text the key signs, and offers to bind this wallet', () => {
    const html = render(['wallet'], {
      text: message,
      keys: [{ address: '0xBcd4042DE499D14e55001CcbB24a551F3b954096', boundAt: '2026-12-01T09:00:00.000Z' }],
    })
    expect(html).toContain('0xBcd4042DE499D14e55001CcbB24a551F3b954096')
    expect(html).toContain('2026-12-01 09:00:00 UTC')
    expect(html).toContain(message)
    expect(html).toContain('>Bind this wallet<')
    expect(html).not.toContain('Bind my dev key')
  })

  it('no key yet says so; dev mode offers the dev key too; before the answer, binding waits', () => {
    const none = render(['wallet', 'dev'], { text: message, keys: [] })
    expect(none).toContain('No key is bound to you yet.')
    expect(none).toContain('>Bind my dev key<')
    const loading = render(['wallet'])
    expect(loading).toContain('Loading your signing keys')
    expect(loading).toMatch(/<button[^>]*disabled=""[^>]*>Bind this wallet</)
  })
})
