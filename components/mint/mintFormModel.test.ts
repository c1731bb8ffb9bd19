import { describe, expect, it } from 'vitest'
import type { PickedBar } from '@/components/vault/pickedBars'
import { mintRequestSchema } from '@/lib/mint/mintRequestSchema'
import {
  amountOf,
  barErrorsOf,
  checkDraftBars,
  draftToRequest,
  emptyDraft,
  issuesToErrors,
  labelForPath,
  type MintDraft,
  shiftBarErrors,
} from './mintFormModel'
import { sha256Hex } from './sha256Hex'

function bar(serial: string, fineOz = '401.084', vault = 'LDN-1'): PickedBar {
  return {
    id: `id-${serial}`,
    vault,
    serial,
    refiner: 'Valcambi SA',
    year: 2025,
    grossOz: '401.125',
    fineness: '999.9',
    fineOz,
  }
}

function draft(): MintDraft {
  return {
    to: ' 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 ',
    vault: 'LDN-1',
    receiptRef: 'VR-2026-000123',
    documentSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    bars: [bar('AB123456'), bar('AB123457', '399.960')],
  }
}

describe('mint form model', () => {
  it('starts on the dev vault with no bar and no amount', () => {
    expect(emptyDraft()).toMatchObject({ vault: 'LDN-1', bars: [] })
    expect(amountOf([])).toBe('')
  })

  it('the amount is the total of the bars, exact to the milli-ounce', () => {
    expect(amountOf(draft().bars)).toBe('801.044')
    expect(amountOf([bar('A', '0.001'), bar('B', '0.002')])).toBe('0.003')
  })

  it('sends each bar by serial and refiner only, and a request the shared rules accept', () => {
    const request = draftToRequest(draft())
    expect(request.amount).toBe('801.044')
    expect(request.to).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    expect(request.vaultProof.bars).toEqual([
      { serial: 'AB123456', refiner: 'Valcambi SA' },
      { serial: 'AB123457', refiner: 'Valcambi SA' },
    ])
    expect(mintRequestSchema.safeParse(request).success).toBe(true)
  })

  it('no bar: the shared rules say so on the bars', () => {
    const result = mintRequestSchema.safeParse(draftToRequest({ ...draft(), bars: [] }))
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain('vaultProof.bars')
  })

  it('no bar: the read-only amount is never blamed, the bars are ("Amount: is required" told no one what to do)', () => {
    const checked = mintRequestSchema.safeParse(draftToRequest({ ...draft(), bars: [] }))
    const issues = (checked.error?.issues ?? []).map((i) => ({ path: i.path.join('.'), message: i.message }))
    const { fields, other } = issuesToErrors(issues, 0)
    expect(fields.amount).toBeUndefined()
    expect(other.map((o) => o.path)).not.toContain('amount')
    expect(fields['vaultProof.bars']).toBe('must list at least one bar')
    expect(issuesToErrors([{ path: 'amount', message: 'is required' }], 0).fields).toEqual({
      'vaultProof.bars': 'pick at least one bar: the amount is their total fine weight',
    })
  })

  it('a bar of another vault than the request names is flagged on that bar', () => {
    const d = { ...draft(), vault: 'ZRH-2' }
    expect(checkDraftBars(d).map((i) => i.path)).toEqual(['vaultProof.bars.0', 'vaultProof.bars.1'])
    expect(checkDraftBars(d)[0]?.message).toMatch(/is in vault LDN-1, not ZRH-2/)
    expect(checkDraftBars(draft())).toEqual([])
    expect(checkDraftBars({ ...draft(), vault: ' LDN-1 ' })).toEqual([])
  })

  it('maps issue paths to fields and bars; unknown paths go to the summary', () => {
    const { fields, other } = issuesToErrors(
      [
        { path: 'vaultProof.bars.1.fineOz', message: 'a' },
        { path: 'vaultProof.bars.0', message: 'b' },
        { path: 'amount', message: 'c' },
        { path: 'vaultProof.bars.7', message: 'gone row' },
        { path: '', message: 'unknown field: x' },
      ],
      2,
    )
    expect(fields).toEqual({
      'vaultProof.bars.1.fineOz': 'a',
      'vaultProof.bars.0': 'b',
      'vaultProof.bars': 'their total fine weight (the amount) c',
    })
    expect(other.map((o) => o.path)).toEqual(['vaultProof.bars.7', ''])
    expect(labelForPath('vaultProof.bars.1.fineOz')).toBe('Bar 2 fine weight')
    expect(labelForPath('vaultProof.bars.0')).toBe('Bar 1')
    expect(labelForPath('to')).toBe('Recipient address')
  })

  it("a bar's errors are gathered for its row: its own first, then its fields', named", () => {
    const errors = {
      'vaultProof.bars.0': 'bar AB123456 (Valcambi SA) is already used',
      'vaultProof.bars.1.grossOz': 'must be 400.000 as in the bar list (got 401)',
      'vaultProof.bars.1.year': 'must be 2024 as in the bar list (got 2025)',
    }
    expect(barErrorsOf(errors, 0)).toEqual(['bar AB123456 (Valcambi SA) is already used'])
    expect(barErrorsOf(errors, 1)).toEqual([
      'year: must be 2024 as in the bar list (got 2025)',
      'gross weight: must be 400.000 as in the bar list (got 401)',
    ])
    expect(barErrorsOf(errors, 2)).toEqual([])
  })

  it('removing a bar moves the errors of the bars below up with them and drops its own', () => {
    const errors = {
      to: 'x',
      amount: 'must equal ...',
      'vaultProof.bars': 'must list at least one bar',
      'vaultProof.bars.0': 'first',
      'vaultProof.bars.1': 'second',
      'vaultProof.bars.2.serial': 'third',
    }
    expect(shiftBarErrors(errors, 1)).toEqual({
      to: 'x',
      'vaultProof.bars.0': 'first',
      'vaultProof.bars.1.serial': 'third',
    })
  })

  it('hashes a document with Web Crypto', async () => {
    expect(await sha256Hex(new Blob(['test']))).toBe('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')
  })
})
