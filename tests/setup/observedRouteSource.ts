import { exportedMethods } from '../attack/appRoutes.ts'

/** app/api/gold/mint/[orderId]/route.ts -> /api/gold/mint/{orderId}; next-auth's [...nextauth] -> {nextauth} */
export function openApiPathOfRouteFile(file: string): string {
  const segments = file
    .split('/')
    .slice(0, -1)
    .filter((s) => s !== 'app' && !/^\(.*\)$/.test(s))
  return `/${segments.join('/')}`.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, '{$1}')
}

export type ObservedRouteSourceParameters = {
  /** the route file, from the repository's root: `app/api/gold/mint/[orderId]/route.ts` */
  file: string
  /** the module that exports observeRouteHandler (tests/helpers/observedRouteAnswers.ts), as an import specifier */
  observer: string
}

/**
 * A route file's source with each HTTP method it exports wrapped by observeRouteHandler: `export const GET = ...`
 * becomes `const routed$GET = ...` (as long: the columns stay) and a line at the end exports
 * `GET = observeRouteHandler(routed$GET, { method: 'get', path })`; the other exports (`dynamic`) stay as they are.
 * Throws on a method exported in a form it does not rewrite, so that no handler goes unobserved without a word.
 */
export function observedRouteSource(source: string, { file, observer }: ObservedRouteSourceParameters): string {
  const methods = exportedMethods(source)
  if (methods.length === 0) return source
  const rewritten = source
    .replace(/^export const ([A-Z]+)\b/gm, 'const routed$$$1')
    .replace(/^export (async function|function) ([A-Z]+)\b/gm, '$1 routed$$$2')
    .replace(/^export const \{([^}]*)\}/gm, (_all, names: string) => {
      const renamed = names.split(',').map((n) => {
        const [from, to = from] = n.split(':').map((x) => x.trim())
        return from === '' ? '' : `${from}: routed$${to}`
      })
      return `const { ${renamed.filter((n) => n !== '').join(', ')} }`
    })
  const missing = methods.filter((m) => !new RegExp(`\\brouted\\$${m}\\b`).test(rewritten))
  if (missing.length > 0)
    throw new Error(`${file}: cannot observe ${missing.join(', ')} (an export form not rewritten)`)
  const path = openApiPathOfRouteFile(file)
  const exports = methods.map(
    (m) =>
      `export const ${m} = observeRouteHandler$(routed$${m}, ${JSON.stringify({ method: m.toLowerCase(), path })})`,
  )
  return [
    rewritten,
    `;import { observeRouteHandler as observeRouteHandler$ } from ${JSON.stringify(observer)}`,
    ...exports,
    '',
  ].join('\n')
}
