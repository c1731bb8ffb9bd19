import { describe, expect, it } from 'vitest'
import { mintRequestSchema } from '@/lib/mint/mintRequestSchema'
import {
  checkAmount,
  draftToRequest,
  fineMilliOzOf,
  issuesToErrors,
  labelForPath,
  newBarDraft,
  totalFine,
  type MintDraft,
} from './mintFormModel'
import { sha256Hex } from './sha256Hex'

function draft(): MintDraft {
  const bar = (serial: string) => ({ ...newBarDraft(), serial, refiner: 'Valcambi SA', year: '2025', grossOz: '401.125', fineness: '999.9' })
  return {
    to: ' 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 ',
    amount: '802.168',
    vault: 'LDN-1',
    receiptRef: 'VR-2026-000123',
    documentSha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    bars: [bar('AB123456'), bar('AB123457')],
  }
}

describe('mint form model', () => {
  it('computes fine weights as the server does, and only for valid input', () => {
    expect(fineMilliOzOf({ grossOz: '401.125', fineness: '999.9' })).toBe(401084n)
    expect(fineMilliOzOf({ grossOz: ' 401.125 ', fineness: '999.9' })).toBe(401084n)
    expect(fineMilliOzOf({ grossOz: '401.1255', fineness: '999.9' })).toBeNull()
    expect(fineMilliOzOf({ grossOz: '401', fineness: '899' })).toBeNull()
    expect(fineMilliOzOf({ grossOz: '', fineness: '999.9' })).toBeNull()
  })

  it('totals the bars and checks the amount against the total', () => {
    const d = draft()
    const total = totalFine(d.bars)
    expect(total).toEqual({ milliOz: 802168n, incomplete: 0 })
    expect(checkAmount('802.168', total)).toBe('matches')
    expect(checkAmount('802.17', total)).toBe('differs')
    expect(checkAmount('', total)).toBe('empty')
    expect(checkAmount('8e2', total)).toBe('invalid')
    expect(checkAmount('1', { milliOz: 0n, incomplete: 1 })).toBe('incomplete')
  })

  it('builds a request the shared rules accept', () => {
    const request = draftToRequest(draft())
    expect(request.vaultProof.bars[0]).toMatchObject({ year: 2025, fineOz: '401.084' })
    expect(mintRequestSchema.safeParse(request).success).toBe(true)
  })

  it('a year that is not a number is named by the rules', () => {
    const d = draft()
    const bar = d.bars[0]
    if (bar) bar.year = '20x5'
    const result = mintRequestSchema.safeParse(draftToRequest(d))
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['vaultProof.bars.0.year'])
  })

  it('maps issue paths to fields; unknown paths go to the summary', () => {
    const { fields, other } = issuesToErrors(
      [
        { path: 'vaultProof.bars.1.fineOz', message: 'a' },
        { path: 'vaultProof.bars.0', message: 'b' },
        { path: 'amount', message: 'c' },
        { path: 'vaultProof.bars.7.serial', message: 'gone row' },
        { path: '', message: 'unknown field: x' },
      ],
      2,
    )
    expect(fields).toEqual({ 'vaultProof.bars.1.fineOz': 'a', 'vaultProof.bars.0': 'b', amount: 'c' })
    expect(other.map((o) => o.path)).toEqual(['vaultProof.bars.7.serial', ''])
    expect(labelForPath('vaultProof.bars.1.fineOz')).toBe('Bar 2 fine weight')
    expect(labelForPath('to')).toBe('Recipient address')
  })

  it('hashes a document with Web Crypto', async () => {
    expect(await sha256Hex(new Blob(['test']))).toBe('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')
  })
})
