import type { Metadata } from 'next'
import Link from 'next/link'
import type { ReactNode } from 'react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { getSessionUser } from '@/lib/web/auth/getSessionUser'
import { homePathFor } from '@/lib/web/auth/homePathFor'
import { signOut } from '@/lib/web/auth/nextAuth'
import './globals.css'
import { Providers } from './providers'

export const metadata: Metadata = {
  title: { default: 'mintdesk', template: '%s · mintdesk' },
  description: 'Operations desk for gold-backed token mints',
  robots: { index: false, follow: false },
}

async function signOutAction() {
  'use server'
  await signOut({ redirectTo: '/login' })
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const user = await getSessionUser()
  return (
    <html lang="en">
      <body className="min-h-screen">
        <Providers>
          <header className="border-b border-stone-200 bg-white">
            <div className="mx-auto flex h-14 max-w-6xl items-center gap-6 px-6">
              <Link
                href={user ? homePathFor(user.role) : '/login'}
                className="font-semibold tracking-tight text-brand-700"
              >
                mintdesk
              </Link>
              {user ? (
                <>
                  <nav aria-label="Main" className="flex items-center gap-1 text-sm">
                    {/* approvers approve and auditors read, neither requests; they and admins read every order */}
                    {user.role === 'staff' || user.role === 'admin' ? (
                      <NavLink href="/mints/new">New mint</NavLink>
                    ) : null}
                    <NavLink href="/mints">{user.role === 'staff' ? 'My mints' : 'Mints'}</NavLink>
                    <NavLink href="/redemptions">Redemptions</NavLink>
                    {user.role === 'approver' || user.role === 'admin' ? (
                      <NavLink href="/approvals">Approvals</NavLink>
                    ) : null}
                    {user.role === 'admin' || user.role === 'auditor' ? <NavLink href="/admin">Admin</NavLink> : null}
                  </nav>
                  <div className="ml-auto flex items-center gap-3 text-sm">
                    <span className="flex items-center gap-2">
                      <span className="sr-only">Signed in as</span>
                      <span className="text-stone-700">{user.email}</span>
                      <Badge tone={user.role === 'admin' ? 'brand' : 'neutral'}>{user.role}</Badge>
                    </span>
                    {user.role === 'auditor' ? null : <NavLink href="/account/signing-key">Signing key</NavLink>}
                    <form action={signOutAction}>
                      <Button type="submit" variant="secondary" size="sm">
                        Sign out
                      </Button>
                    </form>
                  </div>
                </>
              ) : null}
            </div>
          </header>
          <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
        </Providers>
      </body>
    </html>
  )
}

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="rounded-md px-3 py-1.5 text-stone-700 hover:bg-stone-100 hover:text-stone-900">
      {children}
    </Link>
  )
}
