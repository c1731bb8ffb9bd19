'use client'

import { type ReactNode, useEffect, useId, useRef } from 'react'
import { Button } from '@/components/ui/Button'

export type ConfirmDialogProps = {
  open: boolean
  title: string
  children?: ReactNode
  /** the confirm button's label: say what happens ("Cancel job", "Retry 3 jobs") */
  confirmLabel: string
  /** the dismiss button's label; "Keep it" rather than "Cancel" next to a cancel action */
  dismissLabel?: string
  tone?: 'danger' | 'primary'
  busy?: boolean
  onConfirm: () => void
  onDismiss: () => void
}

/**
 * A modal confirmation (the native <dialog>: focus trapped, Escape closes it, role
 * "dialog" for tests), never window.confirm. The dismiss button has focus first, so a
 * stray Enter does not confirm a destructive action.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  dismissLabel = 'Keep it',
  tone = 'danger',
  busy = false,
  onConfirm,
  onDismiss,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const bodyId = useId()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      onCancel={(e) => {
        e.preventDefault()
        if (!busy) onDismiss()
      }}
      className="m-auto w-full max-w-md rounded-lg border border-stone-200 bg-white p-0 text-stone-900 shadow-xl backdrop:bg-stone-900/40"
    >
      {open ? (
        <div className="p-5">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          {children ? (
            <div id={bodyId} className="mt-2 space-y-2 text-sm text-stone-600">
              {children}
            </div>
          ) : null}
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="secondary" onClick={onDismiss} disabled={busy} autoFocus>
              {dismissLabel}
            </Button>
            <Button
              variant={tone === 'danger' ? 'danger' : 'primary'}
              onClick={onConfirm}
              disabled={busy}
              aria-busy={busy}
            >
              {busy ? 'Working…' : confirmLabel}
            </Button>
          </div>
        </div>
      ) : null}
    </dialog>
  )
}
