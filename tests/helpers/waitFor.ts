export type WaitForParameters = { timeoutMs: number; intervalMs?: number; what: string }

/** Polls `check` until it returns a value other than undefined/false, or throws after timeoutMs. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  { timeoutMs, intervalMs = 200, what }: WaitForParameters,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    try {
      const value = await check()
      if (value !== undefined && value !== false) return value
    } catch (error) {
      last = error
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`,
      )
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}
