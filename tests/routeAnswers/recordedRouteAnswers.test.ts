import { inject, it } from 'vitest'
import { buildOpenApiDocument } from '@/lib/web/openapi/buildOpenApiDocument'
import { assertRecordedAnswersDocumented, takeRecordedAnswers } from '@/tests/helpers/recordedRouteAnswers'

// The one check of a run's route answers (vitest.config.ts runs this file in a project of its own, after every other
// test file): each answer a route handler gave in any test of the run, recorded by tests/setup/recordRouteAnswers.ts,
// against the OpenAPI document, status, media type and JSON body. It fails with the answers the document does not
// describe, each named with the test files that received it.
it("every answer a route handler gave in this run's tests is as the OpenAPI document describes it", async () => {
  const recorded = takeRecordedAnswers(inject('routeAnswersDir'))
  await assertRecordedAnswersDocumented(buildOpenApiDocument(), recorded)
})
