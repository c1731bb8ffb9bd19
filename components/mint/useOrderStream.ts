'use client'

import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { ApiMintOrder } from '@/lib/web/mint/apiTypes'
import { mintOrderQueryKey } from './mintApi'

/** What the order page knows of its live stream: open (each step arrives as it happens) or not (it polls). */
export type OrderStreamState = 'connecting' | 'open' | 'closed'

/** After the stream failed for good (a 4xx or 5xx answer), the page polls and opens a new stream this much later. */
const REOPEN_AFTER_MS = 10_000

/**
 * Follows one order through GET /api/gold/mint/{orderId}/events (Server-Sent Events): each `order` event's order
 * goes into the query cache, where the page reads it. EventSource reconnects by itself after a dropped stream; a
 * refused one (closed) is opened again after REOPEN_AFTER_MS, the page polling meanwhile.
 */
export function useOrderStream(orderId: string): OrderStreamState {
  const queryClient = useQueryClient()
  const [state, setState] = useState<OrderStreamState>('connecting')
  useEffect(() => {
    let source: EventSource | undefined
    let reopen: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    const open = () => {
      if (stopped) return
      setState('connecting')
      source = new EventSource(`/api/gold/mint/${encodeURIComponent(orderId)}/events`)
      source.addEventListener('open', () => setState('open'))
      source.addEventListener('order', (event) => {
        const order = JSON.parse((event as MessageEvent<string>).data) as ApiMintOrder
        queryClient.setQueryData(mintOrderQueryKey(orderId), order)
        setState('open')
      })
      source.addEventListener('error', () => {
        if (source?.readyState === EventSource.CLOSED) {
          setState('closed')
          reopen = setTimeout(open, REOPEN_AFTER_MS)
        } else setState('connecting')
      })
    }
    open()
    return () => {
      stopped = true
      clearTimeout(reopen)
      source?.close()
    }
  }, [orderId, queryClient])
  return state
}
