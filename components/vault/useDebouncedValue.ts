import { useEffect, useState } from 'react'

/**
 * `value` once it has stopped changing for `delayMs`: a search asks the server once per pause in typing, not per key.
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs)
    return () => clearTimeout(timer)
  }, [value, delayMs])
  return settled
}
