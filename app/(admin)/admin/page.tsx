import type { Metadata } from 'next'
import { AdminDashboard } from '@/components/admin/AdminDashboard'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'
import { getConfig } from '@/lib/web/config/getConfig'
import { availableSigners } from '@/lib/web/signing/availableSigners'

export const metadata: Metadata = { title: 'Admin dashboard' }

/**
 * /admin: queue depth, oldest queued, failure rates, run times, dead letters, throughput, signers (with their pending
 * nonces and an admin's speed-up, cancel and resync), workers; live.
 */
export default async function AdminDashboardPage() {
  await requireAdminReader()
  return <AdminDashboard keySigners={availableSigners({ production: getConfig('web').production })} />
}
