import { type Attributes, type Context, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'

export type WithSpanParameters = {
  attributes?: Attributes
  /** the parent: the active context by default (a job's remote parent: contextOfTraceparent) */
  parent?: Context
  kind?: SpanKind
}

/** mintdesk's tracer: a no-op until startTracing registered a provider (then every span is exported) */
export const tracer = () => trace.getTracer('mintdesk')

/**
 * Runs `fn` inside a span that is active for everything it calls (KMS, the chain, the
 * database spans beneath), ends it, and marks it failed with the error that escapes.
 * With tracing off this is the API's no-op span: no allocation worth counting.
 */
export async function withSpan<T>(
  name: string,
  { attributes, parent, kind = SpanKind.INTERNAL }: WithSpanParameters,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind }, parent ?? context.active(), async (span) => {
    try {
      return await fn(span)
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error))
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message.split('\n')[0] : String(error),
      })
      throw error
    } finally {
      span.end()
    }
  })
}
