export type MapWithLimitParameters<T, R> = {
  items: readonly T[]
  /** at most this many calls of fn run at once */
  limit: number
  fn: (item: T, index: number) => Promise<R>
}

/**
 * Runs fn over the items with bounded concurrency and keeps each item's own result or
 * error (a KMS failure for one order must not fail its batch). Results in item order.
 */
export async function mapWithLimit<T, R>({
  items,
  limit,
  fn,
}: MapWithLimitParameters<T, R>): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length)
  let next = 0
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) {
      try {
        results[i] = { status: 'fulfilled', value: await fn(items[i] as T, i) }
      } catch (reason) {
        results[i] = { status: 'rejected', reason }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane))
  return results
}
