import { describe, expect, it } from 'vitest'
import {
  checkFileSize,
  checkImports,
  folderOf,
  isImportChecked,
  isSizeChecked,
  MAX_LINES,
  PRODUCTION_FOLDERS,
  parseImports,
  resolveSpecifier,
} from './rules'

// Each rule of tests/architecture/rules.ts on a tiny in-memory example, so the checker
// that guards the repository is itself shown to fail when it should.

/** The violations of one file whose source is `source`. */
const violationsOf = (file: string, source: string) => checkImports(file, parseImports(source, file))

describe('parseImports', () => {
  it('finds every form of import, type imports and re-exports included', () => {
    const source = [
      "import a from '@/lib/a'",
      "import type { B } from '@/lib/b'",
      "import { type C } from './c'",
      "import '@/lib/side-effect'",
      "export { d } from '../d'",
      "export * from '@/lib/e'",
      "export type { F } from '@/lib/f'",
      "import g = require('@/lib/g')",
      "const h = await import('@/lib/h')",
      "const i = require('@/lib/i')",
      "type J = import('@/lib/j').J",
    ].join('\n')
    expect(parseImports(source).map((r) => r.specifier)).toEqual([
      '@/lib/a',
      '@/lib/b',
      './c',
      '@/lib/side-effect',
      '../d',
      '@/lib/e',
      '@/lib/f',
      '@/lib/g',
      '@/lib/h',
      '@/lib/i',
      '@/lib/j',
    ])
  })

  it('gives each import its line and ignores comments and strings that only look like imports', () => {
    const source = [
      "// import x from '@/worker/x'",
      'const s = "import y from \'@/worker/y\'"',
      "import z from '@/lib/z'",
    ].join('\n')
    expect(parseImports(source)).toEqual([{ specifier: '@/lib/z', line: 3 }])
  })

  it('reads .tsx', () => {
    expect(parseImports("import { db } from '@/db'\nexport const A = () => <div>{String(db)}</div>", 'A.tsx')).toEqual([
      { specifier: '@/db', line: 1 },
    ])
  })
})

describe('resolveSpecifier and folderOf', () => {
  it('resolves the @/ alias and relative paths to repository paths; packages to null', () => {
    expect(resolveSpecifier('app/page.tsx', '@/lib/mint/types')).toBe('lib/mint/types')
    expect(resolveSpecifier('worker/tasks/mintSend.ts', '../chain/prepareMint')).toBe('worker/chain/prepareMint')
    expect(resolveSpecifier('lib/mint/x.ts', '../../tests/helpers/db')).toBe('tests/helpers/db')
    expect(resolveSpecifier('lib/mint/x.ts', 'drizzle-orm')).toBeNull()
    expect(resolveSpecifier('lib/mint/x.ts', 'node:path')).toBeNull()
  })

  it('places a path in its top-level folder; the web root files are app; tool configs are nowhere', () => {
    expect(folderOf('lib/mint/types')).toBe('lib')
    expect(folderOf('db')).toBe('db')
    expect(folderOf('proxy')).toBe('app')
    expect(folderOf('proxy.ts')).toBe('app')
    expect(folderOf('vitest.config.ts')).toBeNull()
    expect(folderOf('../outside/x')).toBeNull()
  })
})

describe('import rules', () => {
  it('allows the documented directions', () => {
    expect(
      violationsOf('app/api/x/route.ts', "import { getDb } from '@/db'\nimport { route } from '@/lib/http/route'"),
    ).toEqual([])
    expect(violationsOf('app/page.tsx', "import { Card } from '@/components/ui/Card'")).toEqual([])
    expect(
      violationsOf(
        'worker/tasks/t.ts',
        "import { TASK } from '@/lib/jobs/jobKeys'\nimport type { Tx } from '@/db/client'",
      ),
    ).toEqual([])
    expect(violationsOf('lib/mint/x.ts', "import { mintOrders } from '@/db/schema/mint'")).toEqual([])
    expect(
      violationsOf('components/mint/F.tsx', "import type { MintRequest } from '@/lib/mint/mintRequestSchema'"),
    ).toEqual([])
    expect(violationsOf('cli/migrate.ts', "import { migrate } from '@/db/migrate'")).toEqual([])
    expect(violationsOf('scripts/test-chaos.ts', "import { run } from '../tests/chaos/runLongChaos'")).toEqual([])
  })

  it('app never imports worker', () => {
    expect(violationsOf('app/api/x/route.ts', "import { signTx } from '@/worker/chain/signTx'")).toMatchObject([
      { from: 'app', to: 'worker', line: 1, rule: expect.stringContaining('app never imports worker') },
    ])
  })

  it('components never import db, even for a type', () => {
    expect(violationsOf('components/jobs/X.tsx', "import type { Db } from '@/db/client'")).toMatchObject([
      { from: 'components', to: 'db', rule: 'components never import db' },
    ])
  })

  it('lib never imports worker, app, components, scripts, cli or tests', () => {
    const source = [
      "import a from '@/worker/a'",
      "import b from '@/app/b'",
      "import c from '@/components/c'",
      "import d from '@/scripts/d'",
      "import e from '@/cli/e'",
      "import f from '../../tests/helpers/f'",
    ].join('\n')
    expect(violationsOf('lib/mint/x.ts', source).map((v) => v.to)).toEqual([
      'worker',
      'app',
      'components',
      'scripts',
      'cli',
      'tests',
    ])
  })

  it('db imports nothing of ours', () => {
    expect(violationsOf('db/index.ts', "import { getConfig } from '@/lib/config/getConfig'")).toMatchObject([
      { from: 'db', to: 'lib', rule: 'db imports nothing of ours' },
    ])
  })

  it('nothing imports app, the web root files included', () => {
    expect(violationsOf('worker/x.ts', "import x from '../app/x'")).toMatchObject([
      { to: 'app', rule: 'nothing imports app' },
    ])
    expect(violationsOf('lib/auth/x.ts', "import { config } from '@/proxy'")).toMatchObject([
      { to: 'app', rule: 'nothing imports app' },
    ])
  })

  it('worker never imports components', () => {
    expect(violationsOf('worker/x.ts', "import { Card } from '@/components/ui/Card'")).toMatchObject([
      { from: 'worker', to: 'components' },
    ])
  })

  it('production code never imports scripts/ or tests/, by alias, relative path or dynamic import', () => {
    for (const folder of PRODUCTION_FOLDERS) {
      const source = "import a from '@/scripts/stack/anvil'\nconst b = await import('@/tests/helpers/db')"
      expect(violationsOf(`${folder}/x/y.ts`, source).map((v) => v.rule)).toEqual([
        'production code never imports scripts/',
        'production code never imports tests/',
      ])
    }
    expect(
      violationsOf('worker/integration/verifyMints.ts', "import { x } from '../../tests/fixtures/chain'"),
    ).toHaveLength(1)
  })

  it('checks production code and the dev tools, not tests', () => {
    expect(isImportChecked('lib/mint/createMintOrder.ts')).toBe(true)
    expect(isImportChecked('scripts/start.ts')).toBe(true)
    expect(isImportChecked('bench/runBench.ts')).toBe(true)
    expect(isImportChecked('proxy.ts')).toBe(true)
    expect(isImportChecked('lib/mint/createMintOrder.int.test.ts')).toBe(false)
    expect(isImportChecked('tests/helpers/db.ts')).toBe(false)
    expect(isImportChecked('vitest.config.ts')).toBe(false)
  })
})

describe('size rule', () => {
  const lines = (n: number) => 'x\n'.repeat(n)

  it(`flags a production file over ${MAX_LINES} lines, not one at ${MAX_LINES}`, () => {
    expect(checkFileSize('lib/mint/big.ts', lines(MAX_LINES + 1))).toEqual({
      file: 'lib/mint/big.ts',
      lines: MAX_LINES + 1,
    })
    expect(checkFileSize('lib/mint/ok.ts', lines(MAX_LINES))).toBeNull()
    expect(checkFileSize('deploy/lib/Stack.ts', lines(MAX_LINES + 1))).not.toBeNull()
    expect(checkFileSize('scripts/stack/x.ts', lines(MAX_LINES + 1))).not.toBeNull()
    expect(checkFileSize('components/mint/Form.tsx', lines(MAX_LINES + 1))).not.toBeNull()
  })

  it('leaves out tests, generated files and migrations', () => {
    expect(isSizeChecked('lib/mint/x.int.test.ts')).toBe(false)
    expect(isSizeChecked('tests/chaos/scenarios.ts')).toBe(false)
    expect(isSizeChecked('lib/chain/abi.generated.ts')).toBe(false)
    expect(isSizeChecked('db/migrations/0004_x.ts')).toBe(false)
    expect(checkFileSize('lib/chain/abi.generated.ts', lines(MAX_LINES + 1))).toBeNull()
  })
})
