import { describe, expect, it } from 'vitest'
import { formatJobSearch, jobSearchFromParams, jobSearchToParams, parseJobSearch } from './parser'

describe('parseJobSearch', () => {
  it('reads filters and keeps the rest as free text, in order', () => {
    expect(parseJobSearch('state:dead task:mint_send nonce too low')).toEqual({
      state: 'dead',
      task: 'mint_send',
      q: 'nonce too low',
      errors: [],
    })
    expect(parseJobSearch('  0x70997970C51812dc3A010C7d01b50e0d17dc79C8 ')).toEqual({
      q: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      errors: [],
    })
    expect(parseJobSearch('')).toEqual({ errors: [] })
  })
  it('is case-insensitive on keys and states; is: is an alias', () => {
    expect(parseJobSearch('State:DEAD')).toEqual({ state: 'dead', errors: [] })
    expect(parseJobSearch('is:retrying')).toEqual({ state: 'retrying', errors: [] })
  })
  it('reports bad values instead of dropping them silently', () => {
    expect(parseJobSearch('state:zombie task:').errors).toEqual(['Unknown state "zombie".', '"" is not a task name.'])
  })
  it('a later filter wins', () => {
    expect(parseJobSearch('state:dead state:done').state).toBe('done')
  })
})

describe('job search and the URL', () => {
  it('housekeeping=show asks for the housekeeping tasks; other values are not a filter', () => {
    const s = { state: 'done' as const, housekeeping: true as const }
    expect(jobSearchToParams(s).toString()).toBe('state=done&housekeeping=show')
    expect(jobSearchFromParams(jobSearchToParams(s))).toEqual(s)
    expect(jobSearchFromParams(new URLSearchParams('housekeeping=yes'))).toEqual({})
  })
  it('round-trips through the query string, ignoring junk', () => {
    const s = { state: 'dead' as const, task: 'mint_send', q: 'AccountFrozen' }
    expect(jobSearchFromParams(jobSearchToParams(s))).toEqual(s)
    expect(jobSearchFromParams(new URLSearchParams('state=zombie&task=a%20b&q=%20%20&cursor=x'))).toEqual({})
  })
  it('reads filters typed into q in the URL as the search box does; the parameters win', () => {
    expect(jobSearchFromParams(new URLSearchParams('q=task:mint_send'))).toEqual({ task: 'mint_send' })
    expect(jobSearchFromParams(new URLSearchParams('q=state:dead%20task:order_confirm%20nonce%20too%20low'))).toEqual({
      state: 'dead',
      task: 'order_confirm',
      q: 'nonce too low',
    })
    expect(jobSearchFromParams(new URLSearchParams('task=mint_send&q=task:nonce_health%20x'))).toEqual({
      task: 'mint_send',
      q: 'x',
    })
  })
  it('formats the search box text', () => {
    expect(formatJobSearch({ state: 'dead', task: 'mint_send', q: 'x y' })).toBe('task:mint_send x y')
    expect(formatJobSearch({})).toBe('')
  })
})
