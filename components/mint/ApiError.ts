import type { ErrorIssue } from '@/lib/errors/BaseError'

/**
 * An API error answer (`{ error: { code, message, issues? } }`) as the browser sees it.
 * `status` lets React Query's retry rule (app/providers.tsx) skip 4xx answers.
 */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number
  readonly code: string
  readonly issues: ErrorIssue[]

  constructor({ status, code, message, issues = [] }: { status: number; code: string; message: string; issues?: ErrorIssue[] }) {
    super(message)
    this.status = status
    this.code = code
    this.issues = issues
  }

  /** Reads an error Response; a body that is not the API's shape still gives a usable error. */
  static async from(res: Response): Promise<ApiError> {
    let body: unknown = null
    try {
      body = await res.json()
    } catch {
      body = null
    }
    const error = isRecord(body) && isRecord(body.error) ? body.error : {}
    const issues = Array.isArray(error.issues)
      ? error.issues.filter(
          (i): i is ErrorIssue => isRecord(i) && typeof i.path === 'string' && typeof i.message === 'string',
        )
      : []
    return new ApiError({
      status: res.status,
      code: typeof error.code === 'string' ? error.code : 'http_error',
      message: typeof error.message === 'string' ? error.message : `The server answered ${res.status}.`,
      issues,
    })
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}
