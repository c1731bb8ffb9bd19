import { describe, expect, it } from 'vitest'
import { traceIdOf, traceUrlOf } from './traceIdOf'

describe('traceIdOf / traceUrlOf (the admin job page links the trace)', () => {
  const id = '4bf92f3577b34da6a3ce929d0e0e4736'
  it('reads the trace id of a payload traceparent, null otherwise', () => {
    expect(traceIdOf({ orderId: 'x', traceparent: `00-${id}-00f067aa0ba902b7-01` })).toBe(id)
    expect(traceIdOf({ orderId: 'x' })).toBeNull()
    expect(traceIdOf({ traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' })).toBeNull()
    expect(traceIdOf({ traceparent: 'garbage' })).toBeNull()
    expect(traceIdOf(null)).toBeNull()
  })
  it('fills the TRACE_URL template, or gives no link without one', () => {
    expect(traceUrlOf(id, 'https://grafana.example.com/explore?trace={traceId}')).toBe(
      `https://grafana.example.com/explore?trace=${id}`,
    )
    expect(traceUrlOf(id, undefined)).toBeNull()
  })
})
