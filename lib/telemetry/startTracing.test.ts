import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// Tracing off costs nothing: without OTEL_EXPORTER_OTLP_ENDPOINT no module of
// the OpenTelemetry SDK is loaded at all; with it, the SDK and the exporter of the chosen
// protocol are. Each case in a fresh Node process, as the web and the worker start.
const root = path.resolve(import.meta.dirname, '..', '..')

function probe(env: Record<string, string>): { enabled: boolean; sdk: string[] } {
  const script = `
    const { startTracing } = await import(${JSON.stringify(path.join(root, 'lib/telemetry/startTracing.ts'))})
    const { createRequire } = await import('node:module')
    const tracing = await startTracing({ serviceName: 'mintdesk-worker' })
    const sdk = Object.keys(createRequire(import.meta.url).cache)
      .map((k) => /node_modules\\/(@opentelemetry\\/[^/]+)/.exec(k)?.[1])
      .filter((p) => p && p !== '@opentelemetry/api')
    await tracing.shutdown()
    console.log(JSON.stringify({ enabled: tracing.enabled, sdk: [...new Set(sdk)].sort() }))`
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  })
  if (res.status !== 0) throw new Error(res.stderr)
  return JSON.parse(res.stdout.trim().split('\n').pop() ?? '{}') as { enabled: boolean; sdk: string[] }
}

describe('startTracing', () => {
  it('off without OTEL_EXPORTER_OTLP_ENDPOINT: no SDK module loaded', () => {
    expect(probe({})).toEqual({ enabled: false, sdk: [] })
  })
  it('on with it: the SDK and the exporter of OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf by default, http/json)', () => {
    const proto = probe({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })
    expect(proto.enabled).toBe(true)
    expect(proto.sdk).toContain('@opentelemetry/sdk-trace-node')
    expect(proto.sdk).toContain('@opentelemetry/exporter-trace-otlp-proto')
    expect(proto.sdk).not.toContain('@opentelemetry/exporter-trace-otlp-http')
    const json = probe({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })
    expect(json.sdk).toContain('@opentelemetry/exporter-trace-otlp-http')
    expect(json.sdk).not.toContain('@opentelemetry/exporter-trace-otlp-proto')
    expect(probe({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SDK_DISABLED: 'true' })).toEqual({
      enabled: false,
      sdk: [],
    })
  })
})
