/**
 * URLs in error texts and log lines, with what may carry a credential removed. RPC
 * providers put the API key in the path or the query (`https://mainnet.infura.io/v3/KEY`,
 * `https://eth-mainnet.g.alchemy.com/v2/KEY`, `?apikey=`), Postgres URLs carry a password,
 * and viem writes the request URL into its error messages ("URL: ..."), which the worker
 * stores (job_events, job_records, failure_reason) and logs. The scheme, host and port are
 * kept (enough to tell which node failed); user info, path, query and fragment go.
 */

export const REDACTED = '[redacted]'

// scheme://authority[/path][?query][#fragment], up to whitespace, a quote, a backslash (a
// JSON escape in a log line) or an angle bracket
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]{1,15}):\/\/([^\s"'`<>\\/?#]*)([/?#][^\s"'`<>\\]*)?/gi

// source locations in stack traces (file:///app/worker.mjs:12:3): no credential, worth keeping
const SOURCE_SCHEMES = new Set(['file', 'webpack', 'webpack-internal'])

/** `text` with every URL cut down to its scheme, host and port (stack frames' file URLs kept). Idempotent. */
export function redactSecrets(text: string): string {
  return text.replace(URL_IN_TEXT, (match: string, scheme: string, authority: string, rest: string | undefined) => {
    if (SOURCE_SCHEMES.has(scheme.toLowerCase())) return match
    const at = authority.lastIndexOf('@')
    const host = at >= 0 ? authority.slice(at + 1) : authority
    const user = at >= 0 ? `${REDACTED}@` : ''
    const tail = rest === undefined || rest === '/' || rest === `/${REDACTED}` ? (rest ?? '') : `/${REDACTED}`
    const redacted = `${scheme}://${user}${host}${tail}`
    return redacted === match ? match : redacted
  })
}

/**
 * The same error with its message and stack redacted, in place: graphile-worker stores the
 * message of what a task throws as the job's last_error, so a task failure must leave the
 * worker already redacted. The class (and so PermanentJobError and the like) is kept.
 */
export function redactErrorInPlace(error: unknown): unknown {
  if (!(error instanceof Error)) return error
  const message = redactSecrets(error.message)
  if (message !== error.message) error.message = message
  if (error.stack !== undefined) {
    const stack = redactSecrets(error.stack)
    if (stack !== error.stack) error.stack = stack
  }
  return error
}
