import { describe, expect, it } from 'vitest'
import { MINT_REQUEST_LIMITS } from '@/lib/mint/mintRequestLimits'
import type { ApiVaultBar } from '@/lib/web/vault/apiTypes'
import { addPickedBar, formatOz, pickedTotals, pickStateOf, removePickedBar } from './pickedBars'
import { vaultBarsUrl } from './vaultBarsUrl'

function result(n: number, fineOz = '401.084'): ApiVaultBar {
  return {
    id: `bar-${n}`,
    vault: 'LDN-1',
    serial: `VC${100000 + n}`,
    refiner: 'Valcambi SA',
    year: 2025,
    grossOz: '401.125',
    fineness: '999.9',
    fineOz,
    status: 'available',
    orderId: null,
    redemptionId: null,
    updatedAt: '2026-01-31T00:00:00.000Z',
  }
}

describe('bar picker model', () => {
  it('totals the chosen bars exactly: count and fine milli-ounces', () => {
    expect(pickedTotals([])).toEqual({ count: 0, milliOz: 0n })
    const totals = pickedTotals([result(1), result(2, '399.960'), result(3, '0.001')])
    expect(totals).toEqual({ count: 3, milliOz: 801045n })
    expect(formatOz(totals.milliOz)).toBe('801.045')
    // 0.1 + 0.2 in floats is not 0.3; in milli-ounces it is
    expect(formatOz(pickedTotals([result(1, '0.100'), result(2, '0.200')]).milliOz)).toBe('0.300')
  })

  it('adds a result once, keeps only the fields the form needs, and in the order chosen', () => {
    let picked = addPickedBar([], result(2))
    picked = addPickedBar(picked, result(1))
    picked = addPickedBar(picked, result(2))
    expect(picked.map((b) => b.serial)).toEqual(['VC100002', 'VC100001'])
    expect(picked[0]).toEqual({
      id: 'bar-2',
      vault: 'LDN-1',
      serial: 'VC100002',
      refiner: 'Valcambi SA',
      year: 2025,
      grossOz: '401.125',
      fineness: '999.9',
      fineOz: '401.084',
    })
  })

  it('says what each result may do: add, added already, or the mint is full', () => {
    const picked = addPickedBar([], result(1))
    expect(pickStateOf(result(1), picked)).toBe('added')
    expect(pickStateOf(result(2), picked)).toBe('add')
    const full = Array.from({ length: MINT_REQUEST_LIMITS.maxBars }, (_, i) => result(i + 10))
    expect(pickStateOf(result(2), full)).toBe('full')
    expect(pickStateOf(result(10), full)).toBe('added')
    expect(addPickedBar(full, result(2))).toHaveLength(MINT_REQUEST_LIMITS.maxBars)
  })

  it('removes by position', () => {
    const picked = [result(1), result(2), result(3)].reduce(addPickedBar, [])
    expect(removePickedBar(picked, 1).map((b) => b.id)).toEqual(['bar-1', 'bar-3'])
    expect(removePickedBar(picked, 5)).toHaveLength(3)
  })

  it('asks the inventory API for available bars of a vault, blank parts left out', () => {
    expect(vaultBarsUrl({ vault: ' LDN-1 ', status: 'available', q: ' vc-10 ', cursor: null, limit: 20 })).toBe(
      '/api/vault/bars?vault=LDN-1&status=available&q=vc-10&limit=20',
    )
    expect(vaultBarsUrl({ status: 'missing' })).toBe('/api/vault/bars?status=missing')
    expect(vaultBarsUrl({ vault: 'A&B', q: '', cursor: 'x+y' })).toBe('/api/vault/bars?vault=A%26B&cursor=x%2By')
  })
})
