import type { ComponentProps, ReactNode } from 'react'
import { cn } from './cn'

export type AlertTone = 'error' | 'warning' | 'info' | 'success'

const tones: Record<AlertTone, string> = {
  error: 'border-red-200 bg-red-50 text-red-900',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
  info: 'border-sky-200 bg-sky-50 text-sky-900',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
}

/**
 * A message box. Errors use role="alert" (announced at once); the other tones
 * role="status". Find it in tests with `getByRole('alert')`.
 */
export function Alert({
  tone = 'info',
  title,
  className,
  children,
  ...props
}: Omit<ComponentProps<'div'>, 'title'> & { tone?: AlertTone; title?: ReactNode }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('rounded-md border px-4 py-3 text-sm', tones[tone], className)}
      {...props}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? 'mt-1' : undefined}>{children}</div> : null}
    </div>
  )
}
