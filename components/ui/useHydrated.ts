'use client'

import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/**
 * False on the server and while the browser hydrates, true from the render after. A part that reads data
 * another part may have fetched first (a React Query cache shared with the admin menu) shows it only once
 * hydrated, so its hydration render is the server's HTML whenever its boundary hydrates.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
