import { describe, expect, it } from 'vitest'
import { buildApiPost } from './buildApiPost'

describe('buildApiPost', () => {
  it("fills the path's parameters in, encoded, and writes the body as JSON", () => {
    expect(
      buildApiPost('/api/gold/mint/{orderId}/approve', {
        params: { path: { orderId: 'a b/c' } },
        body: { signature: '0x12' },
      }),
    ).toEqual({ path: '/api/gold/mint/a%20b%2Fc/approve', body: '{"signature":"0x12"}' })
  })

  it('keeps a path without parameters as it is', () => {
    const { path } = buildApiPost('/api/gold/redemptions/{redemptionId}/approve', {
      params: { path: { redemptionId: '7f1c' } },
      body: { signature: '0x34' },
    })
    expect(path).toBe('/api/gold/redemptions/7f1c/approve')
  })

  it('is checked against the generated paths, as the client is', () => {
    // @ts-expect-error a body the operation does not take
    buildApiPost('/api/gold/mint/{orderId}/approve', { params: { path: { orderId: 'x' } }, body: { sig: '0x12' } })
    // @ts-expect-error the path's parameter left out
    buildApiPost('/api/gold/mint/{orderId}/approve', { body: { signature: '0x12' } })
    // @ts-expect-error a path that takes no POST
    buildApiPost('/api/health', {})
    expect(true).toBe(true)
  })
})
