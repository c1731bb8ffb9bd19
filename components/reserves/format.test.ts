import { describe, expect, it } from 'vitest'
import { formatOunces, isPositive } from './format'

describe('reserves format', () => {
  it('groups thousands and keeps every decimal', () => {
    expect(formatOunces('0.000')).toBe('0.000 oz')
    expect(formatOunces('1234567.891')).toBe('1,234,567.891 oz')
    expect(formatOunces('401.000000000000000001')).toBe('401.000000000000000001 oz')
    expect(formatOunces('-1000.5')).toBe('-1,000.5 oz')
  })
  it('tells a positive amount from zero without a float', () => {
    expect(isPositive('0.000')).toBe(false)
    expect(isPositive('0.000000000000000001')).toBe(true)
    expect(isPositive('401.084')).toBe(true)
  })
})
