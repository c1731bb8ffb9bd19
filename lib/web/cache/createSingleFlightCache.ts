export type CreateSingleFlightCacheParameters<V> = {
  /** how long a value is served after its read finished, ms */
  ttlMs: number
  /** values kept at most; the least recently stored goes first */
  maxEntries?: number
  /** false: the value is handed to the callers of its read but not kept (an answer too big to hold) */
  retain?: (value: V) => boolean
  /** milliseconds, monotonic; tests pass their own clock */
  now?: () => number
}

export type SingleFlightCache<V> = {
  /**
   * The value under `key`: a fresh one from the cache, the read in flight for it (every
   * caller waiting on the same promise), or a new read by `load`. A failed read is not
   * kept: its callers all get its error, the next caller reads again.
   */
  get: (key: string, load: () => Promise<V>) => Promise<V>
  /** forgets every kept value (reads in flight still settle for their callers) */
  clear: () => void
}

type Entry<V> = { pending: Promise<V> } | { value: V; expiresAt: number }

/**
 * A per-process cache whose misses are single-flight: however many callers ask for a key
 * at once, `load` runs once and they all share its result, which then serves every
 * caller for `ttlMs`. So the work behind a key runs at most once per interval (plus the
 * time of the read itself) whatever the number of readers.
 *
 * ```ts
 * const cache = createSingleFlightCache<ApiReserves>({ ttlMs: 5_000 })
 * const reserves = await cache.get('reserves', () => getReservesOrThrow(db, parameters))
 * ```
 */
export function createSingleFlightCache<V>({
  ttlMs,
  maxEntries = 1_000,
  retain = () => true,
  now = () => performance.now(),
}: CreateSingleFlightCacheParameters<V>): SingleFlightCache<V> {
  const entries = new Map<string, Entry<V>>()

  const store = (key: string, entry: Entry<V>) => {
    entries.delete(key)
    entries.set(key, entry)
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next()
      if (oldest.done) break
      entries.delete(oldest.value)
    }
  }

  return {
    get(key, load) {
      const entry = entries.get(key)
      if (entry && 'pending' in entry) return entry.pending
      if (entry && now() < entry.expiresAt) return Promise.resolve(entry.value)
      const pending = (async () => load())().then(
        (value) => {
          // only the read that is still the key's entry settles it (not one cleared or evicted meanwhile)
          if (entries.get(key) === flight) {
            if (retain(value)) store(key, { value, expiresAt: now() + ttlMs })
            else entries.delete(key)
          }
          return value
        },
        (error: unknown) => {
          if (entries.get(key) === flight) entries.delete(key)
          throw error
        },
      )
      const flight: Entry<V> = { pending }
      store(key, flight)
      return pending
    },
    clear() {
      entries.clear()
    },
  }
}
