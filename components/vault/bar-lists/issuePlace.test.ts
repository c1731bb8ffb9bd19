import { describe, expect, it } from 'vitest'
import { issuePlace } from './issuePlace'

describe('issuePlace', () => {
  it('names a CSV line, a JSON bar (from 1) and the list in words', () => {
    expect(issuePlace('line.2.fineness')).toBe('line 2, fineness')
    expect(issuePlace('line.12.grossOz')).toBe('line 12, gross oz')
    expect(issuePlace('line.7')).toBe('line 7')
    expect(issuePlace('bars.3.grossOz')).toBe('bar 4, gross oz')
    expect(issuePlace('')).toBe('the list')
    expect(issuePlace('asOf')).toBe('as of')
  })
})
