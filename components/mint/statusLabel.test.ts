import { describe, expect, it } from 'vitest'
import { mintStatuses } from '@/lib/web/mint/apiTypes'
import { statusLabel } from './statusLabel'

describe('statusLabel', () => {
  it('words every status, never its code', () => {
    expect(statusLabel('awaiting_approval')).toBe('Awaiting approval')
    for (const status of mintStatuses) {
      expect(statusLabel(status)).not.toContain('_')
      expect(statusLabel(status)).toMatch(/^[A-Z][a-z ]+$/)
    }
  })
})
