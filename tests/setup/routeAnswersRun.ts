import { readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildOpenApiDocument } from '../../lib/web/openapi/buildOpenApiDocument'
import {
  recordedAnswerProblems,
  routeAnswersDir,
  takeRecordedAnswers,
  undocumentedAnswersMessage,
} from '../helpers/recordedRouteAnswers'

declare module 'vitest' {
  export interface ProvidedContext {
    /** the run's folder of recorded route answers (tests/helpers/recordedRouteAnswers.ts) */
    routeAnswersDir: string
    /** the repository's root: test files are named from it */
    repositoryRoot: string
  }
}

const root = path.resolve(import.meta.dirname, '..', '..')

/** pids of the runs whose folders are still there; a folder of a run that is gone is removed */
function removeFoldersOfGoneRuns(): void {
  const parent = path.join(root, '.data', 'route-answers')
  let names: string[] = []
  try {
    names = readdirSync(parent)
  } catch {
    return
  }
  for (const name of names) {
    const pid = Number(name)
    if (pid === process.pid) continue
    try {
      process.kill(pid, 0)
    } catch {
      rmSync(path.join(parent, name), { recursive: true, force: true })
    }
  }
}

/**
 * Every project of a run (vitest.config.ts): the run's folder of recorded route answers, the same for each project
 * (named by the run's main process). As the run closes, answers still there were not checked (a run that left out
 * tests/routeAnswers/recordedRouteAnswers.test.ts, such as `npx vitest run <one file>`): they are checked here, and
 * an answer the document does not describe fails the run with its test file and route.
 */
export default function setup(project: TestProject) {
  removeFoldersOfGoneRuns()
  const dir = routeAnswersDir(root, process.pid)
  project.provide('routeAnswersDir', dir)
  project.provide('repositoryRoot', root)
  return async () => {
    const recorded = takeRecordedAnswers(dir)
    rmSync(dir, { recursive: true, force: true })
    if (recorded.length === 0) return
    const problems = await recordedAnswerProblems(buildOpenApiDocument(), recorded)
    if (problems.length === 0) return
    console.error(`\n${undocumentedAnswersMessage(problems)}\n`)
    process.exitCode = 1
  }
}
