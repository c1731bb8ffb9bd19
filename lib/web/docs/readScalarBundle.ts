import { readFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * Set before the bundle runs: the zod that Scalar bundles shares zod 4's global config, and with `jitless` it does
 * not probe `Function('')` for its JIT parser (the page's CSP has no 'unsafe-eval': the probe is a CSP violation),
 * as lib/web/zodWithoutEval.ts does for our own pages.
 */
const ZOD_WITHOUT_EVAL = 'globalThis.__zod_globalConfig ??= {}; globalThis.__zod_globalConfig.jitless = true;\n'

/**
 * Scalar's standalone bundle (@scalar/api-reference, dist/browser/standalone.js), read from the installed package
 * after ZOD_WITHOUT_EVAL: /docs/api serves it from our own origin, never a CDN. The package's exports do not name
 * the file, so it is read by its path; next.config.js has the standalone output carry it. Read once per process.
 */
let bundle: Promise<Buffer> | undefined

export function readScalarBundle(): Promise<Buffer> {
  bundle ??= readFile(path.join(process.cwd(), 'node_modules/@scalar/api-reference/dist/browser/standalone.js')).then(
    (file) => Buffer.concat([Buffer.from(ZOD_WITHOUT_EVAL), file]),
  )
  return bundle
}
