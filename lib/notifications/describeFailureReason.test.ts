import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FAILURE_REASONS } from '@/lib/errors/jobs'
import { describeFailureReason } from './describeFailureReason'

/** docs/api.md's table of failure reasons: code -> sentence */
function documentedReasons(): Map<string, string> {
  const doc = readFileSync(path.join(process.cwd(), 'docs/api.md'), 'utf8')
  const section = doc.split('### Failure reasons')[1]?.split('\n## ')[0] ?? ''
  const rows = [...section.matchAll(/^\| `([a-z0-9_]+)` +\| (.+?) +\|$/gm)]
  return new Map(rows.filter((r) => r[1] !== 'reason').map((r) => [r[1] ?? '', r[2] ?? '']))
}

describe('describeFailureReason', () => {
  it('the code, then its fixed sentence', () => {
    expect(describeFailureReason('reverted')).toBe('reverted: the mint transaction reverted on chain')
  })

  it('docs/api.md lists every code, no other, each with the sentence the email shows', () => {
    const documented = documentedReasons()
    expect([...documented.keys()].sort()).toEqual([...FAILURE_REASONS].sort())
    for (const code of FAILURE_REASONS) expect(`${code}: ${documented.get(code)}`).toBe(describeFailureReason(code))
  })
})
