import Link from 'next/link'
import { Alert } from '@/components/ui/Alert'
import type { Metrics } from './adminApi'

/** Dead letters should be zero; when they are not, this is the loudest thing on the page. */
export function DeadLetterBanner({ deadLetters }: { deadLetters: Metrics['deadLetters'] }) {
  if (deadLetters.count === 0) {
    return (
      <Alert tone="success" title="No dead letters">
        Every job that failed has attempts left or was handled.
      </Alert>
    )
  }
  const latest = deadLetters.recent[0]
  return (
    <Alert
      tone="error"
      className="border-2 border-red-400"
      title={`${deadLetters.count} dead ${deadLetters.count === 1 ? 'letter' : 'letters'}: jobs stopped for good (attempts used up or a permanent error)`}
    >
      {latest ? (
        <p>
          Latest: job{' '}
          <Link href={`/admin/jobs/${latest.id}`} className="font-mono underline">
            #{latest.id}
          </Link>{' '}
          ({latest.task}) — <span className="font-mono">{firstLine(latest.lastError)}</span>
        </p>
      ) : null}
      <p className="mt-2">
        <Link href="/admin/dead" className="font-semibold underline underline-offset-4">
          Review the dead letters
        </Link>
      </p>
    </Alert>
  )
}

function firstLine(text: string | null): string {
  return (text ?? 'no error recorded').split('\n')[0] ?? ''
}
