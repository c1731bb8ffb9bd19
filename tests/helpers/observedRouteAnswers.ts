import type { ReceivedAnswer } from '@/tests/helpers/documentedAnswers'

/** A route handler as a route file exports it (`export const GET = route({...})`): a Request, Next's context. */
type RouteHandler = (...args: never[]) => Promise<Response>

/**
 * The answers the route handlers gave in this test file, as tests/setup/observeRouteHandlers.ts wraps every handler a
 * test imports from app/api/**\/route.ts. Kept on globalThis: a vi.resetModules that re-imports this module still
 * records into the one list the setup file's afterAll reads.
 */
const KEY = Symbol.for('mintdesk.observedRouteAnswers')
type Store = { answers: Promise<ReceivedAnswer>[] }
const store = (): Store => {
  const g = globalThis as { [KEY]?: Store }
  g[KEY] ??= { answers: [] }
  return g[KEY]
}

/** `application/json` and `application/*+json`, not NDJSON (a stream, read by the test or never). */
const isJson = (contentType: string | null) => /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(contentType ?? '')

/**
 * The answer as the document describes answers. A JSON body is read from a clone (the test still reads its own);
 * any other body (NDJSON, CSV, Server-Sent Events, Prometheus text) is left alone: status and media type only.
 */
async function answerOf(method: ReceivedAnswer['method'], path: string, res: Response): Promise<ReceivedAnswer> {
  const contentType = res.headers.get('content-type')
  const answer = { method, path, status: res.status, contentType }
  if (!isJson(contentType) || res.body === null) return { ...answer, body: undefined, bodyUnread: true }
  const text = await res.clone().text()
  try {
    return { ...answer, body: text === '' ? text : JSON.parse(text) }
  } catch {
    // not JSON though it says so: the schema check names it
    return { ...answer, body: text }
  }
}

/**
 * The handler, answering as before, with each of its answers recorded for the run's check after every test file
 * (tests/setup/recordRouteAnswers.ts). `path` is the document's path of the route file: `/api/gold/mint/{orderId}`.
 */
export function observeRouteHandler<H extends RouteHandler>(
  handler: H,
  { method, path }: { method: ReceivedAnswer['method']; path: string },
): H {
  const observed = async (...args: Parameters<H>) => {
    const res = await handler(...args)
    // the JSON is cloned now, before the test reads the answer; read when the check asks
    if (res instanceof Response) store().answers.push(answerOf(method, path, res))
    return res
  }
  return observed as H
}

/** The answers recorded since the last call (each answer's JSON read), the list emptied. */
export async function takeObservedAnswers(): Promise<ReceivedAnswer[]> {
  const s = store()
  const taken = s.answers
  s.answers = []
  return Promise.all(taken)
}
