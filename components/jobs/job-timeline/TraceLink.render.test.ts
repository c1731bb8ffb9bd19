import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { TraceLink } from './TraceLink'

// The admin job page's trace link, server-rendered.
describe('TraceLink', () => {
  const id = '4bf92f3577b34da6a3ce929d0e0e4736'
  const payload = { orderId: 'x', traceparent: `00-${id}-00f067aa0ba902b7-01` }
  it('links the trace id through TRACE_URL', () => {
    const html = renderToString(
      createElement(TraceLink, { payload, traceUrl: 'https://grafana.example.com/explore?trace={traceId}' }),
    )
    expect(html).toContain(`href="https://grafana.example.com/explore?trace=${id}"`)
    expect(html).toContain(id)
  })
  it('shows the id without a template, and nothing without a trace', () => {
    expect(renderToString(createElement(TraceLink, { payload, traceUrl: null }))).not.toContain('href')
    expect(renderToString(createElement(TraceLink, { payload, traceUrl: null }))).toContain(id)
    expect(renderToString(createElement(TraceLink, { payload: { orderId: 'x' }, traceUrl: null }))).toBe('')
  })
})
