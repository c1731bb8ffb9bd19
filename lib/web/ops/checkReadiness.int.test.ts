import net from 'node:net'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectedMigrationCount } from '@/db/migrate'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { checkReadiness } from './checkReadiness'

describe('checkReadiness', () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase({ max: 2 })
  })
  afterAll(async () => {
    await t.drop()
  })

  it('is ready on a migrated database', async () => {
    const result = await checkReadiness(t.sql, { expectedMigrations: expectedMigrationCount })
    expect(result).toEqual({ ready: true, migrations: expectedMigrationCount() })
  })

  it('is not ready while migrations are pending', async () => {
    const expected = expectedMigrationCount() + 1
    const result = await checkReadiness(t.sql, { expectedMigrations: () => expected })
    expect(result).toEqual({ ready: false, reason: `migrations pending: ${expected - 1} of ${expected} applied` })
  })

  it('is not ready when the migration journal cannot be read', async () => {
    const result = await checkReadiness(t.sql, {
      expectedMigrations: () => {
        throw new Error('ENOENT: _journal.json')
      },
    })
    expect(result).toEqual({ ready: false, reason: 'migration journal unavailable' })
  })

  it('answers quickly when the database is unreachable (connection refused)', async () => {
    const port = await freePort()
    const dead = postgres(`postgres://x:y@127.0.0.1:${port}/db`, { max: 1, connect_timeout: 30, onnotice: () => {} })
    try {
      const started = Date.now()
      const result = await checkReadiness(dead, { expectedMigrations: () => 1, timeoutMs: 1_000 })
      expect(result.ready).toBe(false)
      expect(Date.now() - started).toBeLessThan(1_500)
    } finally {
      await dead.end({ timeout: 0 })
    }
  })

  it('answers within its timeout when the database hangs (accepts, never replies)', async () => {
    const sockets: net.Socket[] = []
    const server = net.createServer((s) => sockets.push(s))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as net.AddressInfo
    const hung = postgres(`postgres://x:y@127.0.0.1:${port}/db`, { max: 1, connect_timeout: 30, onnotice: () => {} })
    try {
      const started = Date.now()
      const result = await checkReadiness(hung, { expectedMigrations: () => 1, timeoutMs: 300 })
      const elapsed = Date.now() - started
      expect(result).toEqual({ ready: false, reason: 'database did not answer within 300 ms' })
      expect(elapsed).toBeLessThan(1_000)
    } finally {
      await hung.end({ timeout: 0 })
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
