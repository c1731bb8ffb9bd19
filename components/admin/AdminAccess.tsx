'use client'

import { createContext, type ReactNode, useContext } from 'react'

const CanChangeContext = createContext(false)

/**
 * Whether the console's viewer may act (an admin) or only read (an auditor): the console layout
 * provides it from the user's row; every action of the console asks useCanChange and an auditor
 * sees none. The routes refuse an auditor's change whatever the page shows.
 */
export function AdminAccessProvider({ canChange, children }: { canChange: boolean; children?: ReactNode }) {
  return <CanChangeContext value={canChange}>{children}</CanChangeContext>
}

/** true for an admin; false for an auditor, and outside the console. */
export function useCanChange(): boolean {
  return useContext(CanChangeContext)
}

/** Its children for an admin; nothing for an auditor (a form, a button that changes something). */
export function AdminAction({ children }: { children: ReactNode }) {
  return useCanChange() ? children : null
}
