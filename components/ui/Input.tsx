import type { ComponentProps } from 'react'
import { cn } from './cn'

/** A text input; pair it with a `<Label htmlFor>` (or aria-label) so it has a name. */
export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'block h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm text-stone-900 shadow-xs',
        'placeholder:text-stone-400 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600/30',
        'disabled:bg-stone-100 aria-invalid:border-red-500',
        className,
      )}
      {...props}
    />
  )
}
