import type { ReactNode } from 'react'
import { cn } from './cn'

export type ScrollXProps = {
  /** what the box holds, its accessible name ("Jobs", "Signers") */
  label: string
  className?: string
  children: ReactNode
}

/**
 * A box that scrolls sideways when what it holds (a wide table, a stack trace) is wider
 * than the window. It takes the keyboard's focus, so its arrow keys scroll it too (WCAG
 * 2.1.1, axe's scrollable-region-focusable), and it is a named region.
 */
export function ScrollX({ label, className, children }: ScrollXProps) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus for keyboard users (WCAG 2.1.1)
      tabIndex={0}
      className={cn('overflow-x-auto focus-visible:outline-2 focus-visible:outline-amber-600', className)}
    >
      {children}
    </section>
  )
}
