import { afterAll, beforeAll } from 'vitest'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertTestUsers, type TestUsers } from '@/tests/helpers/users'

export type TestDatabaseWithUsers = { t: TestDatabase; u: TestUsers }

/**
 * A database of the test file's own with the test users: created before its tests (handed
 * to `ready`), dropped after them. Call at the top of the file; a beforeAll of the file's
 * own that comes after it runs with the database ready.
 * `setUpTestDatabaseWithUsers((db) => ({ t, u } = db))`
 */
export function setUpTestDatabaseWithUsers(ready: (db: TestDatabaseWithUsers) => void): void {
  let t: TestDatabase | undefined
  beforeAll(async () => {
    t = await createTestDatabase()
    ready({ t, u: await insertTestUsers(t.db) })
  })
  afterAll(async () => {
    await t?.drop()
  })
}
