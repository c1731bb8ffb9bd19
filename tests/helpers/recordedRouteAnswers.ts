import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { OpenApiDocument } from '@/lib/web/openapi/buildOpenApiDocument'
import { answerProblems, type ReceivedAnswer } from '@/tests/helpers/documentedAnswers'

/**
 * The route answers of one test run, recorded by each test file (tests/setup/recordRouteAnswers.ts) into the run's
 * folder under .data/route-answers/ as JSON lines, one line per test file, and checked once against the OpenAPI
 * document after every test file has run (tests/routeAnswers/recordedRouteAnswers.test.ts; when a run leaves that
 * file out, tests/setup/routeAnswersRun.ts checks them as the run closes).
 */
export type RecordedAnswers = {
  /** the test file, from the repository's root */
  file: string
  answers: ReceivedAnswer[]
}

/** The folder of the run whose main process is `pid`: every project of the run (vitest.config.ts) finds the same. */
export const routeAnswersDir = (root: string, pid: number) => path.join(root, '.data', 'route-answers', String(pid))

/** Appends a test file's answers to the run's folder (a file per worker process: no two writers share one). */
export function recordAnswers(dir: string, recorded: RecordedAnswers): void {
  mkdirSync(dir, { recursive: true })
  appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${JSON.stringify(recorded)}\n`)
}

/** The answers recorded in the folder, the files read removed (each answer is checked once). */
export function takeRecordedAnswers(dir: string): RecordedAnswers[] {
  let names: string[]
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'))
  } catch {
    return []
  }
  const recorded: RecordedAnswers[] = []
  for (const name of names) {
    const file = path.join(dir, name)
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line !== '') recorded.push(JSON.parse(line) as RecordedAnswers)
    }
    rmSync(file, { force: true })
  }
  return recorded
}

/**
 * What is wrong with the recorded answers by the document (answerProblems), each problem once with the test files
 * that received it and, when the body is the problem, the body of its first answer: `[]` when every answer is as
 * documented. An answer received alike in many files is checked once.
 */
export async function recordedAnswerProblems(
  document: OpenApiDocument,
  recorded: readonly RecordedAnswers[],
): Promise<string[]> {
  const filesOf = new Map<string, { answer: ReceivedAnswer; files: Set<string> }>()
  for (const { file, answers } of recorded) {
    for (const answer of answers) {
      const key = JSON.stringify([answer.method, answer.path, answer.status, answer.contentType, answer.body])
      const seen = filesOf.get(key) ?? { answer, files: new Set<string>() }
      seen.files.add(file)
      filesOf.set(key, seen)
    }
  }
  const problems = new Map<string, { body: string; files: Set<string> }>()
  for (const { answer, files } of filesOf.values()) {
    for (const problem of await answerProblems(document, answer)) {
      const known = problems.get(problem)
      if (known) {
        for (const f of files) known.files.add(f)
        continue
      }
      const body = answer.bodyUnread ? '' : ` (answered ${JSON.stringify(answer.body)?.slice(0, 300)})`
      problems.set(problem, { body, files: new Set(files) })
    }
  }
  return [...problems].map(([problem, { body, files }]) => `${[...files].sort().join(', ')}: ${problem}${body}`)
}

/**
 * The failure of the check: its first line names the first problem's test files and route (npm test repeats first
 * lines above its summary), one problem a line.
 */
export const undocumentedAnswersMessage = (problems: readonly string[]) =>
  `${problems.length} route answer(s) not as the OpenAPI document (lib/web/openapi/operations/) describes them, ` +
  `by the test files that received them: ${problems.join('\n')}`

/** Throws, listing them with their test files, when any recorded answer is not as the document describes it. */
export async function assertRecordedAnswersDocumented(
  document: OpenApiDocument,
  recorded: readonly RecordedAnswers[],
): Promise<void> {
  const problems = await recordedAnswerProblems(document, recorded)
  if (problems.length > 0) throw new Error(undocumentedAnswersMessage(problems))
}
