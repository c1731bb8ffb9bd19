'use client'

import { useState } from 'react'

/** What a panel says after a change: it was done, or why it was not. */
export type ChangeMessage = { tone: 'success' | 'error'; text: string }

export type UseConfirmedChangeParameters<P> = {
  /** makes the change and says what was done (the success message) */
  apply: (pending: P) => Promise<string>
  /** the error message when the failure has none of its own */
  failure: string
}

/**
 * The admin panels' confirm-then-change: a change waits (pending) until the dialog confirms
 * it, runs once (busy meanwhile), and ends with a message either way; the dialog closes.
 * A new attempt clears the last message: `setPending` with a change, or `startAttempt` when
 * the panel refuses the attempt itself (its field errors then stand alone).
 * `dialog` holds the ConfirmDialog props this decides (open, busy, confirm, dismiss).
 */
export function useConfirmedChange<P>({ apply, failure }: UseConfirmedChangeParameters<P>) {
  const [pending, setPending] = useState<P | null>(null)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<ChangeMessage | null>(null)

  async function run(p: P) {
    setBusy(true)
    try {
      setMessage({ tone: 'success', text: await apply(p) })
    } catch (error) {
      setMessage({ tone: 'error', text: error instanceof Error ? error.message : failure })
    } finally {
      setBusy(false)
      setPending(null)
    }
  }

  const startAttempt = () => setMessage(null)
  const propose = (p: P | null) => {
    if (p !== null) startAttempt()
    setPending(p)
  }

  const dialog = {
    open: pending !== null,
    busy,
    onDismiss: () => setPending(null),
    onConfirm: () => {
      if (pending !== null) void run(pending)
    },
  }
  return { pending, setPending: propose, startAttempt, busy, message, dialog }
}
