import path from 'node:path'
import { defineConfig } from 'vitest/config'

// Unit tests sit beside their code (*.test.ts); integration tests (*.int.test.ts) run
// against the real embedded Postgres (one per run, a database per test file cloned from
// a migrated template) and real anvil + KMS endpoint fixtures.
export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules/**', '.data/**', '.next/**', 'tests/e2e/**', 'deploy/cdk.out/**'],
    globalSetup: ['tests/setup/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
})
