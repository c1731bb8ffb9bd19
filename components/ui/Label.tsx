import type { ComponentProps } from 'react'
import { cn } from './cn'

export function Label({ className, ...props }: ComponentProps<'label'>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: the primitive; each caller gives htmlFor or a control inside
  return <label className={cn('mb-1 block text-sm font-medium text-stone-700', className)} {...props} />
}
