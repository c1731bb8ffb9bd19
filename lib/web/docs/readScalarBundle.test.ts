import { describe, expect, it } from 'vitest'
import { readScalarBundle } from './readScalarBundle'

describe('readScalarBundle', () => {
  it("is Scalar's installed bundle, after the line that keeps its zod from probing eval", async () => {
    const text = (await readScalarBundle()).toString('utf8')
    const [first, ...rest] = text.split('\n')
    expect(first).toBe('globalThis.__zod_globalConfig ??= {}; globalThis.__zod_globalConfig.jitless = true;')
    // the bundle reads that config object (zod 4's shared global config) and skips its Function('') probe with it
    expect(rest.join('\n')).toContain('globalThis.__zod_globalConfig')
    expect(rest.join('\n').length).toBeGreaterThan(1_000_000)
  })
})
