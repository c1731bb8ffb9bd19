import type { Metadata } from 'next'
import { AdminDashboard } from '@/components/admin/AdminDashboard'
import { requireAdminReader } from '@/lib/web/auth/getSessionUser'

export const metadata: Metadata = { title: 'Admin dashboard' }

/** /admin: queue depth, oldest queued, failure rates, run times, dead letters, throughput, signers, workers; live. */
export default async function AdminDashboardPage() {
  await requireAdminReader()
  return <AdminDashboard />
}
