import type { ReactNode } from 'react'
import { cn } from './cn'

/** The head of a data table: one row of column titles, in the one look every table shares. */
export function TableHead({ children }: { children: ReactNode }) {
  return (
    <thead className="bg-stone-50 text-left text-xs font-medium uppercase tracking-wide text-stone-500">
      <tr>{children}</tr>
    </thead>
  )
}

/** One column title (scope="col"); numbers are right-aligned, so is their title. */
export function ColumnHeader({
  className,
  right,
  children,
}: {
  className: string
  right?: boolean
  children: ReactNode
}) {
  return (
    <th scope="col" className={cn(className, right && 'text-right')}>
      {children}
    </th>
  )
}

/** The one row of a table with nothing to show (loading, or nothing found), across all its columns. */
export function EmptyRow({ colSpan, text }: { colSpan: number; text: string }) {
  return (
    <tr className="border-t border-stone-100">
      <td colSpan={colSpan} className="px-3 py-4 text-center text-stone-500">
        {text}
      </td>
    </tr>
  )
}
