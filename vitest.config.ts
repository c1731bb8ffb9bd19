import path from 'node:path'
import { defineConfig } from 'vitest/config'
import { observeRouteHandlers } from './tests/setup/observeRouteHandlers.ts'

// Unit tests sit beside their code (*.test.ts); integration tests (*.int.test.ts) run
// against the real embedded Postgres (one per run, a database per test file cloned from
// a migrated template) and real anvil + KMS endpoint fixtures. Every answer a route handler gives in a test is
// checked against the OpenAPI document after the test file (tests/setup/checkRouteAnswers.ts).
const root = path.resolve(import.meta.dirname)

export default defineConfig({
  plugins: [observeRouteHandlers({ root })],
  resolve: { alias: { '@': root } },
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules/**', '.data/**', '.next/**', 'tests/e2e/**', 'deploy/cdk.out/**'],
    globalSetup: ['tests/setup/globalSetup.ts'],
    setupFiles: ['tests/setup/checkRouteAnswers.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
})
