import { describe, expect, it } from 'vitest'
import { observedRouteSource, openApiPathOfRouteFile } from './observedRouteSource'

const observer = '/repo/tests/helpers/observedRouteAnswers.ts'

describe('openApiPathOfRouteFile', () => {
  it("names the route file's path as the document does", () => {
    expect(openApiPathOfRouteFile('app/api/gold/mint/route.ts')).toBe('/api/gold/mint')
    expect(openApiPathOfRouteFile('app/api/gold/mint/[orderId]/approve/route.ts')).toBe(
      '/api/gold/mint/{orderId}/approve',
    )
    expect(openApiPathOfRouteFile('app/api/auth/[...nextauth]/route.ts')).toBe('/api/auth/{nextauth}')
    expect(openApiPathOfRouteFile('app/api/(public)/openapi.json/route.ts')).toBe('/api/openapi.json')
  })
})

describe('observedRouteSource', () => {
  it('wraps each exported method, keeps the other exports and the lines where they were', () => {
    const source = [
      "import { route } from '@/lib/web/http/route'",
      "export const dynamic = 'force-dynamic'",
      'export const GET = route({ roles: ["admin"], handler: () => 1 })',
      'export async function POST(req: Request) { return new Response(null) }',
    ].join('\n')
    const out = observedRouteSource(source, { file: 'app/api/admin/x/[id]/route.ts', observer })
    const lines = out.split('\n')
    expect(lines.slice(0, 4)).toEqual([
      "import { route } from '@/lib/web/http/route'",
      "export const dynamic = 'force-dynamic'",
      'const routed$GET = route({ roles: ["admin"], handler: () => 1 })',
      'async function routed$POST(req: Request) { return new Response(null) }',
    ])
    // the columns after the name stay: a stack trace still points into the route file as written
    expect(lines[2]?.indexOf('route(')).toBe(source.split('\n')[2]?.indexOf('route('))
    expect(out).toContain(`import { observeRouteHandler as observeRouteHandler$ } from "${observer}"`)
    expect(out).toContain(
      'export const GET = observeRouteHandler$(routed$GET, {"method":"get","path":"/api/admin/x/{id}"})',
    )
    expect(out).toContain(
      'export const POST = observeRouteHandler$(routed$POST, {"method":"post","path":"/api/admin/x/{id}"})',
    )
  })

  it("wraps next-auth's destructured handlers", () => {
    const out = observedRouteSource("import { handlers } from '@/auth'\nexport const { GET, POST } = handlers", {
      file: 'app/api/auth/[...nextauth]/route.ts',
      observer,
    })
    expect(out).toContain('const { GET: routed$GET, POST: routed$POST } = handlers')
    expect(out).toContain(
      'export const GET = observeRouteHandler$(routed$GET, {"method":"get","path":"/api/auth/{nextauth}"})',
    )
  })

  it('leaves a file without methods alone, and throws on an export form it cannot wrap', () => {
    expect(
      observedRouteSource("export const dynamic = 'force-dynamic'", { file: 'app/api/x/route.ts', observer }),
    ).toBe("export const dynamic = 'force-dynamic'")
    expect(() =>
      observedRouteSource('const handler = () => null\nexport { handler as GET }', {
        file: 'app/api/x/route.ts',
        observer,
      }),
    ).toThrow('app/api/x/route.ts: cannot observe GET')
  })
})
