import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import { useRef, useState } from 'react'
import type { ErrorIssue } from '@/lib/errors/BaseError'
import { type MintRequestInput, mintRequestSchema } from '@/lib/mint/mintRequestSchema'
import { ApiError } from '@/lib/web/errors/api'
import type { Summary } from './IssueSummary'
import { postMintRequest } from './mintApi'
import {
  checkDraftBars,
  draftToRequest,
  type FieldErrors,
  issuesToErrors,
  type MintDraft,
  newIdempotencyKey,
} from './mintFormModel'

export type UseSubmitMintRequestParameters = {
  /** how many bars the form has now: issues about bars beyond it go to the summary */
  barCount: number
  /** where field errors (the client's rules or the server's `issues`) are shown */
  setErrors: (errors: FieldErrors) => void
}

export type UseSubmitMintRequestReturnType = {
  /** checks the draft with the server's own rules, then sends it */
  submit: (draft: MintDraft) => void
  /** true from the send until the browser has moved to the order's page */
  sending: boolean
  summary: Summary | null
}

/**
 * Sends a mint request (POST /api/gold/mint) and turns every failure into words on the
 * form: the server's `issues` about a bar (bar_not_in_vault, bar_mismatch,
 * bar_already_used name it by its index) land next to that bar. A retry of the same submission reuses its
 * Idempotency-Key, so it can never mint twice; on success the
 * cached order lists are dropped and the browser opens the order.
 */
export function useSubmitMintRequest({
  barCount,
  setErrors,
}: UseSubmitMintRequestParameters): UseSubmitMintRequestReturnType {
  const router = useRouter()
  const queryClient = useQueryClient()
  const [summary, setSummary] = useState<Summary | null>(null)
  const attempt = useRef<{ key: string; body: string } | null>(null)

  const mutation = useMutation({
    mutationFn: ({ request, key }: { request: MintRequestInput; key: string }) => postMintRequest(request, key),
    onSuccess: (accepted) => {
      // the lists cached in this tab do not know the new order yet
      void queryClient.invalidateQueries({ queryKey: ['mint-orders'] })
      router.push(`/mints/${accepted.orderId}`)
    },
    onError: (error) => showServerError(error),
  })

  function showIssues(title: string, issues: readonly ErrorIssue[]) {
    const { fields, other } = issuesToErrors(issues, barCount)
    setErrors(fields)
    setSummary({ title, issues: [...Object.entries(fields).map(([path, message]) => ({ path, message })), ...other] })
  }

  function showServerError(error: unknown) {
    if (!(error instanceof ApiError)) {
      setSummary({
        title:
          'The server could not be reached. Your request may not have arrived; submitting again is safe, it will not mint twice.',
        issues: [],
      })
      return
    }
    if (error.issues.length > 0) {
      showIssues(
        error.code === 'validation_failed'
          ? 'The request was not accepted. Fix the fields below and submit again.'
          : error.message,
        error.issues,
      )
      return
    }
    if (error.status === 401) {
      setSummary({ title: 'Your session has ended. Sign in again in another tab, then submit again.', issues: [] })
      return
    }
    setSummary({
      title: error.status >= 500 ? `${error.message} Submitting again is safe: it will not mint twice.` : error.message,
      issues: [],
    })
  }

  function submit(draft: MintDraft) {
    const request = draftToRequest(draft)
    const checked = mintRequestSchema.safeParse(request)
    const issues = [
      ...(checked.success
        ? []
        : checked.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))),
      ...checkDraftBars(draft),
    ]
    if (issues.length > 0) {
      showIssues('Some fields need attention.', issues)
      return
    }
    setSummary(null)
    setErrors({})
    // one key per submission; the same body submitted again (a retry) keeps its key
    const body = JSON.stringify(request)
    if (attempt.current?.body !== body) attempt.current = { key: newIdempotencyKey(), body }
    mutation.mutate({ request, key: attempt.current.key })
  }

  return { submit, sending: mutation.isPending || mutation.isSuccess, summary }
}
