import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { BAR_LIST_LIMITS } from './barListLimits'

// The web runs with a bounded heap (the Dockerfile's --max-old-space-size=160), and a route's other
// modules hold part of it. A list of the most bars a custodian may send is read, checked and given
// its typed data, as POST /api/vault/bar-lists/typed-data does, in a fresh Node process with a
// 72 MB heap: the process's own start takes about 25 MB of it.
const root = path.resolve(import.meta.dirname, '..', '..', '..')
const HEAP_MB = 72

function readListOnBoundedHeap(bars: number): { status: number | null; out: string } {
  const script = `
    const { readBarList } = await import(${JSON.stringify(path.join(root, 'lib/web/vault/readBarList.ts'))})
    const { barListMessageTypedData } = await import(${JSON.stringify(path.join(root, 'lib/web/vault/barListMessage.ts'))})
    const refiners = ['Valcambi SA', 'PAMP SA', 'Argor-Heraeus SA', 'Metalor Technologies SA', 'Rand Refinery (Pty) Ltd']
    function* chunks() {
      yield 'serial,refiner,year,grossOz,fineness\\n'
      let lines = []
      for (let i = 0; i < ${bars}; i++) {
        const gross = (350 + ((i * 7919) % 80)) + '.' + String((i * 104729) % 1000).padStart(3, '0')
        lines.push('HEAPTEST' + String(i).padStart(6, '0') + ',' + refiners[i % 5] + ',' + (2015 + (i % 10)) + ',' + gross + ',999.9')
        if (lines.length === 1000) { yield lines.join('\\n') + '\\n'; lines = [] }
      }
      if (lines.length) yield lines.join('\\n') + '\\n'
    }
    const list = await readBarList({ format: 'csv', chunks: chunks(), vault: 'HEAP-1', asOf: '2026-01-01T00:00:00Z' })
    const typed = barListMessageTypedData({ chainId: 31337, verifyingContract: '0x0000000000000000000000000000000000000001' }, list)
    console.log(JSON.stringify({ bars: list.bars.length, root: typed.message.barsRoot }))`
  const res = spawnSync(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', '--input-type=module', '-e', script],
    {
      cwd: root,
      encoding: 'utf8',
      env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    },
  )
  return { status: res.status, out: `${res.stdout}${res.stderr}` }
}

describe('a bar list of the most bars, on a bounded heap', () => {
  it(`is read and given its typed data within ${HEAP_MB} MB of heap`, () => {
    const run = readListOnBoundedHeap(BAR_LIST_LIMITS.maxBars)
    expect(run.out).not.toContain('heap out of memory')
    expect(run.status).toBe(0)
    const answer = JSON.parse(run.out.trim().split('\n').pop() ?? '{}') as { bars: number; root: string }
    expect(answer.bars).toBe(BAR_LIST_LIMITS.maxBars)
    expect(answer.root).toMatch(/^0x[0-9a-f]{64}$/)
  }, 120_000)
})
