import { afterAll } from 'vitest'
import { takeObservedAnswers } from '@/tests/helpers/observedRouteAnswers'

// Every test file (vitest.config.ts's setupFiles): after its tests, each answer a route handler gave in it
// (tests/setup/observeRouteHandlers.ts records them) is checked against the OpenAPI document, status, media type and
// JSON body, and the file fails with the list of those the document does not describe. A file that calls no route
// loads nothing more.
afterAll(async () => {
  const answers = await takeObservedAnswers()
  if (answers.length === 0) return
  const { buildOpenApiDocument } = await import('@/lib/web/openapi/buildOpenApiDocument')
  const { assertAnswersDocumented } = await import('@/tests/helpers/assertAnswersDocumented')
  await assertAnswersDocumented(buildOpenApiDocument(), answers)
})
