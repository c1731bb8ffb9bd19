import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { exportedMethods, listApiRoutes, listPages, samplePath } from './appRoutes'

const root = path.resolve(import.meta.dirname, '..', '..')

describe('appRoutes: the attack surface read from app/', () => {
  it('finds the methods a route file exports, in every way a file can export them', () => {
    expect(exportedMethods('export const GET = route({})\nexport async function POST() {}')).toEqual(['GET', 'POST'])
    expect(exportedMethods('export const { GET, POST } = handlers')).toEqual(['GET', 'POST'])
    expect(exportedMethods('const a = 1\nexport { a as DELETE, b as PATCH }')).toEqual(['PATCH', 'DELETE'])
    expect(exportedMethods('export const dynamic = "force-dynamic"\nexport function PUT() {}')).toEqual(['PUT'])
    expect(exportedMethods('export const GETTER = 1')).toEqual([])
  })

  it('turns folders into URLs: route groups vanish, dynamic segments get values no row has', () => {
    const routes = listApiRoutes(root).map((r) => r.pattern)
    expect(routes).toContain('/api/gold/mint/[orderId]')
    expect(listPages(root).map((p) => p.pattern)).toContain('/admin/jobs/[jobId]')
    expect(listPages(root).some((p) => p.pattern.includes('('))).toBe(false)
    expect(samplePath('/api/admin/jobs/[jobId]/retry')).toBe('/api/admin/jobs/999999999999/retry')
    expect(samplePath('/mints/[orderId]', { orderId: 'a b' })).toBe('/mints/a%20b')
    expect(samplePath('/api/auth/[...nextauth]')).toBe('/api/auth/x')
  })
})
