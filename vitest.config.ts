import path from 'node:path'
import { defineConfig } from 'vitest/config'
import { observeRouteHandlers } from './tests/setup/observeRouteHandlers.ts'

// Unit tests sit beside their code (*.test.ts); integration tests (*.int.test.ts) run
// against the real embedded Postgres (one per run, a database per test file cloned from
// a migrated template) and real anvil + KMS endpoint fixtures. Every answer a route handler gives in a test is
// recorded (tests/setup/recordRouteAnswers.ts) and checked against the OpenAPI document once, after every test file,
// by the project 'route-answers' (tests/routeAnswers/recordedRouteAnswers.test.ts, sequence.groupOrder 1).
const root = path.resolve(import.meta.dirname)
const CHECK = 'tests/routeAnswers/*.test.ts'

export default defineConfig({
  plugins: [observeRouteHandlers({ root })],
  resolve: { alias: { '@': root } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'tests',
          include: ['**/*.test.ts', '**/*.test.tsx'],
          exclude: ['node_modules/**', '.data/**', '.next/**', 'tests/e2e/**', 'deploy/cdk.out/**', CHECK],
          globalSetup: ['tests/setup/globalSetup.ts', 'tests/setup/routeAnswersRun.ts'],
          setupFiles: ['tests/setup/recordRouteAnswers.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'route-answers',
          include: [CHECK],
          globalSetup: ['tests/setup/routeAnswersRun.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
