import type { ReactNode } from 'react'

/** A page's one h1 and the sentence under it that says what the page is for. */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div>
      <h1>{title}</h1>
      {children ? <p className="mt-1 max-w-3xl text-sm text-stone-600">{children}</p> : null}
    </div>
  )
}
