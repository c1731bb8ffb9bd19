import type { OpenApiDocument } from '@/lib/web/openapi/buildOpenApiDocument'
import { type ReceivedAnswer, undocumentedAnswers } from '@/tests/helpers/documentedAnswers'

/**
 * Throws, listing them, when any of the answers is not as the document describes it (undocumentedAnswers): the check
 * every test file makes of its routes' answers after its tests (tests/setup/checkRouteAnswers.ts).
 */
export async function assertAnswersDocumented(
  document: OpenApiDocument,
  answers: readonly ReceivedAnswer[],
): Promise<void> {
  const problems = await undocumentedAnswers(document, answers)
  if (problems.length === 0) return
  throw new Error(
    `${problems.length} answer(s) of the routes that the OpenAPI document (lib/web/openapi/operations/) does not ` +
      `describe:\n${problems.join('\n')}`,
  )
}
