import { BaseError, type ErrorIssue } from '@/lib/errors/BaseError'
import { type ErrorCode, isErrorCode } from '@/lib/errors/http'

/**
 * An API error answer (`{ error: { code, message, issues? } }`) as the browser sees it;
 * thrown by the pages' fetch helpers (components/mint/mintApi.ts, components/jobs/jobsApi.ts).
 * `status` lets React Query's retry rule (app/providers.tsx) skip 4xx answers. A code the
 * table does not know, or an answer that is not the API's shape, is `http_error`;
 * `serverCode` keeps the code as the server sent it, known to this table or not.
 * Client-safe: imports nothing server-only.
 */
export class ApiError extends BaseError<ErrorCode | 'http_error'> {
  override name = 'ApiError'
  readonly status: number
  readonly serverCode: string
  override readonly issues: ErrorIssue[]

  constructor({
    status,
    code,
    message,
    issues = [],
  }: { status: number; code: string; message: string; issues?: ErrorIssue[] }) {
    super(isErrorCode(code) ? code : 'http_error', message, { issues })
    this.status = status
    this.serverCode = code
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
