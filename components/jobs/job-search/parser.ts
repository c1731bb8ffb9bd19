import { isJobState, type JobState } from '@/lib/jobs/jobStates'

/** `housekeeping: true`: the housekeeping tasks' routine jobs are listed too (the list hides them by default) */
export type JobSearch = { state?: JobState; task?: string; q?: string; housekeeping?: true }
export type ParsedJobSearch = JobSearch & { errors: string[] }

const TASK_RE = /^[A-Za-z0-9_:.-]{1,128}$/

/**
 * The jobs search box: `state:dead task:mint_send nonce too low` -> filters. `state:`
 * and `task:` tokens (anywhere, case-insensitive key) become filters; everything else,
 * in order, is the free text (order id, recipient, tx hash, job id or error text).
 * A bad value is reported, not silently dropped.
 */
export function parseJobSearch(input: string): ParsedJobSearch {
  const out: ParsedJobSearch = { errors: [] }
  const rest: string[] = []
  for (const token of input.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(state|task|is):(.*)$/i.exec(token)
    if (!m) {
      rest.push(token)
      continue
    }
    const key = (m[1] ?? '').toLowerCase()
    const value = m[2] ?? ''
    if (key === 'state' || key === 'is') {
      const state = value.toLowerCase()
      if (isJobState(state)) out.state = state
      else out.errors.push(`Unknown state "${value}".`)
    } else if (TASK_RE.test(value)) {
      out.task = value
    } else {
      out.errors.push(`"${value}" is not a task name.`)
    }
  }
  if (rest.length > 0) out.q = rest.join(' ')
  return out
}

/** The search box text for filters (the inverse of parseJobSearch, state left to the tabs). */
export function formatJobSearch({ task, q }: JobSearch): string {
  return [task ? `task:${task}` : '', q ?? ''].filter(Boolean).join(' ')
}

/**
 * Filters from a URL's query string, ignoring what is not a filter. `q` is read as the
 * search box reads it, so `?q=task:mint_send` filters by task as typing it would; the
 * `state` and `task` parameters win over the same filter inside `q`. `housekeeping=show`
 * lists the housekeeping tasks' routine jobs too.
 */
export function jobSearchFromParams(params: URLSearchParams): JobSearch {
  const inQ = parseJobSearch(params.get('q') ?? '')
  const state = params.get('state') ?? inQ.state
  const task = params.get('task') ?? inQ.task
  return {
    ...(isJobState(state) ? { state } : {}),
    ...(task && TASK_RE.test(task) ? { task } : {}),
    ...(inQ.q ? { q: inQ.q } : {}),
    ...(params.get('housekeeping') === 'show' ? { housekeeping: true as const } : {}),
  }
}

export function jobSearchToParams(s: JobSearch): URLSearchParams {
  const p = new URLSearchParams()
  if (s.state) p.set('state', s.state)
  if (s.task) p.set('task', s.task)
  if (s.q) p.set('q', s.q)
  if (s.housekeeping) p.set('housekeeping', 'show')
  return p
}
