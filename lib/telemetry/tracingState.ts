/**
 * Whether this process exports traces (startTracing set it). Code that would do work
 * only for a trace (a database read of the order's trace context) asks this first, so
 * tracing off costs nothing.
 */
let enabled = false

export function isTracingEnabled(): boolean {
  return enabled
}

export function setTracingEnabled(value: boolean): void {
  enabled = value
}
