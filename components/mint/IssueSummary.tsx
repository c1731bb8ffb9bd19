import { useEffect, useRef } from 'react'
import { Alert } from '@/components/ui/Alert'
import type { ErrorIssue } from '@/lib/errors/BaseError'
import { labelForPath } from './mintFormModel'

export type Summary = { title: string; issues: ErrorIssue[] }

/**
 * The error summary at the top of the form. It takes the focus when it appears, so a
 * screen reader hears what went wrong; each issue is named by its field's label.
 */
export function IssueSummary({ summary }: { summary: Summary | null }) {
  const ref = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (summary) ref.current?.focus()
  }, [summary])

  if (!summary) return null
  return (
    <div ref={ref} tabIndex={-1} className="outline-none">
      <Alert tone="error" title={summary.title}>
        {summary.issues.length > 0 ? (
          <ul className="list-disc space-y-0.5 pl-5">
            {summary.issues.map((issue) => (
              <li key={`${issue.path}:${issue.message}`}>
                <span className="font-medium">{labelForPath(issue.path)}</span>: {issue.message}
              </li>
            ))}
          </ul>
        ) : null}
      </Alert>
    </div>
  )
}
