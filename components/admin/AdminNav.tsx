'use client'

import { useQuery } from '@tanstack/react-query'
import Link from 'next/link'
import { usePathname } from 'next/navigation'
import { fetchMetrics, metricsQueryKey } from './adminApi'

const links = [
  { href: '/admin', label: 'Dashboard', exact: true },
  { href: '/admin/jobs', label: 'Jobs', exact: false },
  { href: '/admin/dead', label: 'Dead letters', exact: false },
  { href: '/admin/vault', label: 'Bar lists', exact: false },
  { href: '/admin/users', label: 'Users', exact: false },
  { href: '/admin/controls', label: 'Controls', exact: false },
  { href: '/admin/changes', label: 'Changes', exact: false },
  { href: '/admin/compliance', label: 'Compliance', exact: false },
  { href: '/admin/webhooks', label: 'Webhooks', exact: false },
  { href: '/admin/audit', label: 'Audit', exact: false },
] as const

/** The admin sections, with the dead-letter count in red when there are any (shared with the dashboard's query). */
export function AdminNav() {
  const pathname = usePathname()
  const { data } = useQuery({ queryKey: metricsQueryKey, queryFn: fetchMetrics, refetchInterval: 15_000 })
  const dead = data?.deadLetters.count ?? 0
  return (
    <nav aria-label="Admin" className="mb-6 flex gap-1 border-b border-stone-200 text-sm">
      {links.map((l) => {
        const active = l.exact ? pathname === l.href : pathname === l.href || pathname.startsWith(`${l.href}/`)
        return (
          <Link
            key={l.href}
            href={l.href}
            aria-current={active ? 'page' : undefined}
            className={`-mb-px inline-flex items-center gap-2 border-b-2 px-3 py-2 ${
              active
                ? 'border-brand-600 font-medium text-stone-900'
                : 'border-transparent text-stone-600 hover:text-stone-900'
            }`}
          >
            {l.label}
            {l.href === '/admin/dead' && dead > 0 ? (
              <span className="rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white">
                <span aria-hidden="true">{dead}</span>
                <span className="sr-only">{dead} dead letters</span>
              </span>
            ) : null}
          </Link>
        )
      })}
    </nav>
  )
}
