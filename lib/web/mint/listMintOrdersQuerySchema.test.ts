import { describe, expect, it } from 'vitest'
import { listMintOrdersQuerySchema } from './listMintOrdersQuerySchema'

function paths(input: unknown): string[] {
  const r = listMintOrdersQuerySchema.safeParse(input)
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'))
}

describe('listMintOrdersQuerySchema', () => {
  it('parses the query, empty values counting as absent', () => {
    expect(listMintOrdersQuerySchema.parse({ status: 'pending', cursor: 'abc', limit: '50' })).toEqual({
      status: 'pending',
      cursor: 'abc',
      limit: 50,
    })
    expect(listMintOrdersQuerySchema.parse({ status: '', cursor: '', limit: '' })).toEqual({})
    expect(listMintOrdersQuerySchema.parse({ other: 'ignored' })).toEqual({})
  })

  it.each([
    [{ status: 'done' }, 'status'],
    [{ status: ['pending', 'failed'] }, 'status'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ limit: '-1' }, 'limit'],
    [{ limit: '1e2' }, 'limit'],
    [{ cursor: 'x'.repeat(129) }, 'cursor'],
  ])('rejects %j', (input, path) => {
    expect(paths(input)).toEqual([path])
  })
})
