import path from 'node:path'
import { afterAll, expect, inject } from 'vitest'
import { takeObservedAnswers } from '@/tests/helpers/observedRouteAnswers'
import { recordAnswers } from '@/tests/helpers/recordedRouteAnswers'

// Every test file (vitest.config.ts's setupFiles): after its tests, each answer a route handler gave in it
// (tests/setup/observeRouteHandlers.ts wraps the handlers) is recorded with the test file's name into the run's folder;
// tests/routeAnswers/recordedRouteAnswers.test.ts checks them all against the OpenAPI document once, after every
// other test file. Recording loads nothing of the document: a file pays a write, not the document's schemas.
afterAll(async () => {
  const answers = await takeObservedAnswers()
  if (answers.length === 0) return
  const filepath = expect.getState().testPath ?? 'a test file vitest does not name'
  recordAnswers(inject('routeAnswersDir'), { file: path.relative(inject('repositoryRoot'), filepath), answers })
})
