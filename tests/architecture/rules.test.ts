import { describe, expect, it } from 'vitest'
import {
  checkFileSize,
  checkImports,
  checkProcess,
  type EntrySet,
  entrySetsOf,
  folderOf,
  isImportChecked,
  isProcessChecked,
  isSizeChecked,
  MAX_LINES,
  PRODUCTION_FOLDERS,
  parseImports,
  reachability,
  resolveImport,
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

describe('entry points', () => {
  it('web: the App Router files Next loads, the root files, next.config', () => {
    for (const file of [
      'app/(staff)/mints/[orderId]/page.tsx',
      'app/(admin)/layout.tsx',
      'app/api/gold/mint/route.ts',
      'app/forbidden/not-found.tsx',
      'app/(auth)/login/loading.tsx',
      'proxy.ts',
      'instrumentation.ts',
      'instrumentation-node.ts',
      'next.config.js',
    ]) {
      expect(entrySetsOf(file), file).toEqual(['web'])
    }
    expect(entrySetsOf('app/providers.tsx')).toEqual([])
    expect(entrySetsOf('app/api/gold/mint/route.int.test.ts')).toEqual([])
  })

  it('worker: worker/runtime/main.ts alone; cli: cli/*.ts; tools: scripts/, deploy/, bench/, contracts/', () => {
    expect(entrySetsOf('worker/runtime/main.ts')).toEqual(['worker'])
    expect(entrySetsOf('worker/tasks/mintSend.ts')).toEqual([])
    expect(entrySetsOf('cli/migrate.ts')).toEqual(['cli'])
    expect(entrySetsOf('cli/config/devDatabasePasswords.ts')).toEqual([])
    for (const file of [
      'scripts/stack/anvil.ts',
      'deploy/bin/mintdesk.ts',
      'bench/runBench.ts',
      'contracts/compile.ts',
    ]) {
      expect(entrySetsOf(file), file).toEqual(['tools'])
    }
  })

  it('a test is no entry point, beside its code or in tests/', () => {
    for (const file of ['scripts/stack/anvil.int.test.ts', 'lib/mint/x.test.ts', 'tests/helpers/db.ts', 'lib/x.ts']) {
      expect(entrySetsOf(file), file).toEqual([])
    }
  })
})

describe('resolveImport', () => {
  const files = new Set(['lib/a.ts', 'components/B.tsx', 'db/schema/index.ts', 'contracts/GoldToken.json', 'lib/x.ts'])
  it('finds the file an import names as TypeScript and the bundlers do; packages and missing files are null', () => {
    expect(resolveImport('app/page.tsx', '@/lib/a', files)).toBe('lib/a.ts')
    expect(resolveImport('components/A.tsx', './B', files)).toBe('components/B.tsx')
    expect(resolveImport('lib/y.ts', '@/db/schema', files)).toBe('db/schema/index.ts')
    expect(resolveImport('scripts/s.ts', '@/contracts/GoldToken.json', files)).toBe('contracts/GoldToken.json')
    expect(resolveImport('lib/y.ts', './x.js', files)).toBe('lib/x.ts')
    expect(resolveImport('lib/y.ts', 'viem', files)).toBeNull()
    expect(resolveImport('lib/y.ts', './missing', files)).toBeNull()
  })
})

describe('process rules', () => {
  /**
   * A tiny repository, tidy: the web and the worker share a value (formatOz) and a file
   * of types only (Order); the web and the cli share setLimits; each process's own code
   * is in its folder; the tools reach worker code and their own.
   */
  const tidy: Record<string, string> = {
    'app/(staff)/mints/page.tsx': [
      "import { listMints } from '@/lib/web/mint/listMints'",
      "import { Card } from '@/components/ui/Card'",
    ].join('\n'),
    'app/api/admin/limits/route.ts': "import { setLimits } from '@/lib/controls/setLimits'",
    'instrumentation.ts': "export async function register() { await import('./lib/web/telemetry/startWeb') }",
    'components/ui/Card.tsx': "import { formatOz } from '@/lib/money/formatOz'",
    'lib/web/mint/listMints.ts':
      "import type { Order } from '@/lib/mint/types'\nexport { formatOz } from '../../money/formatOz'",
    'lib/web/telemetry/startWeb.ts': '',
    'lib/money/formatOz.ts': '',
    'lib/mint/types.ts': 'export type Order = { id: string }',
    'lib/controls/setLimits.ts': "import artifact from '@/contracts/GoldToken.json'",
    'contracts/GoldToken.json': '{}',
    'worker/runtime/main.ts': "import { send } from '../mint/send'",
    'worker/mint/send.ts':
      "import type { Order } from '@/lib/mint/types'\nimport { formatOz } from '@/lib/money/formatOz'",
    'cli/limits.ts': "import { setLimits } from '@/lib/controls/setLimits'",
    'scripts/start.ts': "import { seed } from './stack/seed'\nimport { send } from '../worker/mint/send'",
    'scripts/stack/seed.ts': '',
    'lib/mint/types.test.ts': "import '@/lib/web/mint/listMints'",
  }

  /** The tree's reach, and the process rules it breaks (no exceptions unless given). */
  const check = (sources: Record<string, string>, exceptions: Record<string, string> = {}) => {
    const files = Object.keys(sources)
    const reached = reachability(files, (f) => parseImports(sources[f] ?? '', f))
    const none: ReadonlySet<EntrySet> = new Set()
    const violations = files
      .filter(isProcessChecked)
      .flatMap((f) => checkProcess(f, reached.get(f) ?? none, exceptions) ?? [])
    return { reached, violations }
  }
  const reachedBy = (sources: Record<string, string>, file: string) => [...(check(sources).reached.get(file) ?? [])]

  it('follows every import from each entry point: type imports, re-exports and dynamic imports too; tests are not followed', () => {
    expect(reachedBy(tidy, 'lib/money/formatOz.ts').sort()).toEqual(['tools', 'web', 'worker'])
    expect(reachedBy(tidy, 'lib/mint/types.ts').sort()).toEqual(['tools', 'web', 'worker'])
    expect(reachedBy(tidy, 'lib/controls/setLimits.ts').sort()).toEqual(['cli', 'web'])
    expect(reachedBy(tidy, 'lib/web/telemetry/startWeb.ts')).toEqual(['web'])
    expect(reachedBy(tidy, 'worker/mint/send.ts').sort()).toEqual(['tools', 'worker'])
    expect(reachedBy(tidy, 'lib/mint/types.test.ts')).toEqual([])
  })

  it('passes a tree where each file lives with the processes that reach it', () => {
    expect(check(tidy).violations).toEqual([])
  })

  it('fails a file of lib/ (outside lib/web/) that only one process reaches', () => {
    const { violations } = check({
      ...tidy,
      'app/(staff)/mints/page.tsx': `${tidy['app/(staff)/mints/page.tsx']}\nimport { x } from '@/lib/mint/onlyWeb'`,
      'lib/mint/onlyWeb.ts': '',
      'worker/runtime/main.ts': `${tidy['worker/runtime/main.ts']}\nimport { claim } from '@/lib/vault/claimBars'`,
      'lib/vault/claimBars.ts': '',
      'cli/limits.ts': `${tidy['cli/limits.ts']}\nimport { PASSWORDS } from '@/lib/config/devPasswords'`,
      'lib/config/devPasswords.ts': '',
    })
    expect(violations).toEqual([
      { file: 'lib/mint/onlyWeb.ts', reachedBy: ['web'], rule: expect.stringContaining('it belongs in lib/web/') },
      { file: 'lib/vault/claimBars.ts', reachedBy: ['worker'], rule: expect.stringContaining('belongs in worker/') },
      { file: 'lib/config/devPasswords.ts', reachedBy: ['cli'], rule: expect.stringContaining('belongs in cli/') },
    ])
  })

  it("lib/jobs/ is graphile-worker's one home, whichever process reaches a file of it", () => {
    const { violations } = check({
      ...tidy,
      'worker/runtime/main.ts': `${tidy['worker/runtime/main.ts']}\nimport { claim } from '@/lib/jobs/claimJobs'`,
      'lib/jobs/claimJobs.ts': '',
    })
    expect(violations).toEqual([])
  })

  it('fails a file of lib/web/ that the worker (or cli/) reaches too: shared code lives in lib/', () => {
    const { violations } = check({
      ...tidy,
      'worker/mint/send.ts': `${tidy['worker/mint/send.ts']}\nimport { listMints } from '@/lib/web/mint/listMints'`,
      'cli/limits.ts': `${tidy['cli/limits.ts']}\nimport '@/lib/web/telemetry/startWeb'`,
    })
    expect(violations).toEqual([
      {
        file: 'lib/web/mint/listMints.ts',
        reachedBy: ['web', 'worker', 'tools'],
        rule: expect.stringContaining('reached from web and worker: code that two processes share lives in lib/'),
      },
      {
        file: 'lib/web/telemetry/startWeb.ts',
        reachedBy: ['web', 'cli'],
        rule: expect.stringContaining('reached from web and cli'),
      },
    ])
  })

  it('fails a worker/ file that the web reaches', () => {
    const { violations } = check({
      ...tidy,
      'app/api/admin/limits/route.ts': `${tidy['app/api/admin/limits/route.ts']}\nimport { send } from '@/worker/mint/send'`,
    })
    expect(violations).toMatchObject([{ file: 'worker/mint/send.ts', reachedBy: ['web', 'worker', 'tools'] }])
  })

  it('fails production code that only the tools reach', () => {
    const { violations } = check({
      ...tidy,
      'scripts/stack/seed.ts': "import { seedBars } from '@/lib/vault/seedDevBarList'",
      'lib/vault/seedDevBarList.ts': '',
    })
    expect(violations).toEqual([
      {
        file: 'lib/vault/seedDevBarList.ts',
        reachedBy: ['tools'],
        rule: expect.stringContaining('only from the tools'),
      },
    ])
  })

  it('fails a file of lib/, worker/, components/ or app/ that no entry point reaches, even when a test imports it', () => {
    const { violations } = check({
      ...tidy,
      'lib/telemetry/withOrderSpan.ts': '',
      'lib/telemetry/withOrderSpan.test.ts': "import { withOrderSpan } from './withOrderSpan'",
      'worker/chain/unused.ts': '',
      'components/jobs/Old.tsx': '',
      'app/(staff)/mints/helpers.ts': '',
    })
    expect(violations.map((v) => [v.file, v.reachedBy])).toEqual([
      ['lib/telemetry/withOrderSpan.ts', []],
      ['worker/chain/unused.ts', []],
      ['components/jobs/Old.tsx', []],
      ['app/(staff)/mints/helpers.ts', []],
    ])
    expect(violations[0]?.rule).toContain('reached from no entry point')
  })

  it('leaves out a listed exception, and tests', () => {
    const sources = { ...tidy, 'lib/mint/kept.ts': '' }
    expect(check(sources).violations).toHaveLength(1)
    expect(check(sources, { 'lib/mint/kept.ts': 'the reason it stays' }).violations).toEqual([])
    expect(isProcessChecked('lib/mint/types.test.ts')).toBe(false)
    expect(isProcessChecked('worker/sqs/deadLetters.int.test.ts')).toBe(false)
    expect(isProcessChecked('scripts/stack/anvil.ts')).toBe(false)
    expect(isProcessChecked('db/schema/mint.ts')).toBe(true)
  })
})
