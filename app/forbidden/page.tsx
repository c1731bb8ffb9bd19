import type { Metadata } from 'next'
import { ForbiddenMessage } from '@/components/auth/ForbiddenMessage'

export const metadata: Metadata = { title: 'Forbidden' }

/** Where proxy.ts sends a signed-in user who lacks the role for a page (staff on /admin). */
export default function ForbiddenPage() {
  return <ForbiddenMessage />
}
