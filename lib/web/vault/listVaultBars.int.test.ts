import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importTestBarList } from '@/tests/helpers/barLists'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertUser } from '@/tests/helpers/users'
import { listVaultBars } from './listVaultBars'

// The bar picker says how many bars a vault has (the first page's total), not the page size with a '+'.
describe('listVaultBars total', () => {
  let t: TestDatabase
  let user: { id: string; role: 'staff' }

  beforeAll(async () => {
    t = await createTestDatabase()
    user = { id: (await insertUser(t.db, 'staff')).id, role: 'staff' }
    const bars = Array.from({ length: 25 }, (_, i) => ({
      serial: `TOT-${String(i + 1).padStart(3, '0')}`,
      refiner: 'Valcambi SA',
      year: 2025,
      grossOz: '400.000',
      fineness: '999.9',
    }))
    await importTestBarList(t.db, { vault: 'TOT-1', bars })
  }, 120_000)
  afterAll(async () => {
    await t?.drop()
  })

  it('counts every bar the filters match on the first page, and none on the next', async () => {
    const first = await listVaultBars(t.db, { user, vault: 'TOT-1', status: 'available', limit: 10 })
    expect(first.items).toHaveLength(10)
    expect(first.total).toBe(25)
    const next = await listVaultBars(t.db, {
      user,
      vault: 'TOT-1',
      status: 'available',
      limit: 10,
      cursor: first.nextCursor ?? undefined,
    })
    expect(next.total).toBeNull()
    const matching = await listVaultBars(t.db, { user, vault: 'TOT-1', status: 'available', q: 'tot-01', limit: 5 })
    expect(matching.total).toBe(10)
  })

  it('a search finds its bars in the list order, page after page, through the trigrams or (short) the walk', async () => {
    // three characters or more: the matching bars gathered first, then sorted and paged
    const seen: string[] = []
    let cursor: string | undefined
    for (let i = 0; i < 5; i++) {
      const page = await listVaultBars(t.db, { user, q: 'tot-01', limit: 4, cursor })
      seen.push(...page.items.map((b) => b.serial))
      if (!page.nextCursor) break
      cursor = page.nextCursor
    }
    const expected = Array.from({ length: 10 }, (_, i) => `TOT-${String(i + 10).padStart(3, '0')}`)
    expect(seen).toEqual(expected)
    // a serial's end, any case and dashes
    expect((await listVaultBars(t.db, { user, q: '0-25' })).items.map((b) => b.serial)).toEqual(['TOT-025'])
    // shorter than a trigram: the list's order walked, the same answer
    const short = await listVaultBars(t.db, { user, q: '25' })
    expect(short.items.map((b) => b.serial)).toEqual(['TOT-025'])
    expect(short.total).toBe(1)
  })
})
