import path from 'node:path'
import type { Plugin } from 'vitest/config'
import { observedRouteSource } from './observedRouteSource.ts'

/**
 * A Vite plugin of the test runs only (vitest.config.ts): every route file under app/api a test imports, directly or
 * through a helper, has its handlers wrapped by observeRouteHandler (tests/helpers/observedRouteAnswers.ts), so each
 * answer a route test receives is recorded (tests/setup/recordRouteAnswers.ts) and checked against the OpenAPI
 * document once the run's test files are done (tests/routeAnswers/recordedRouteAnswers.test.ts). The app itself
 * (next build, next dev) never sees it.
 */
export function observeRouteHandlers({ root }: { root: string }): Plugin {
  const observer = path.join(root, 'tests/helpers/observedRouteAnswers.ts')
  return {
    name: 'mintdesk:observe-route-handlers',
    enforce: 'pre',
    transform(code, id) {
      const file = path
        .relative(root, id.split('?')[0] ?? id)
        .split(path.sep)
        .join('/')
      if (!/^app\/api\/.+\/route\.tsx?$/.test(file)) return null
      return { code: observedRouteSource(code, { file, observer }), map: null }
    },
  }
}
