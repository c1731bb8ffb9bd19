'use client'

import { useState } from 'react'
import { useCanChange } from '@/components/admin/AdminAccess'
import { ConfirmDialog } from '@/components/admin/ConfirmDialog'
import { useConfirmedChange } from '@/components/admin/useConfirmedChange'
import { Alert } from '@/components/ui/Alert'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, TableHead } from '@/components/ui/Table'
import { type UserRole, userRoles } from '@/lib/web/auth/SessionUser'
import type { ApiUser } from '@/lib/web/users/apiTypes'
import { patchUser } from './usersApi'

/** One change waiting for its confirmation. */
type Pending = { user: ApiUser; change: { role: UserRole } | { disabled: boolean } }

export type UsersAdminProps = { initialUsers: ApiUser[]; currentUserId: string }

/**
 * The admins' users page: each user's role and status, a role change or a disable/enable
 * behind a confirmation that says what happens (their sessions stop at their next
 * request). A role change applies once another admin confirms it (/admin/changes); a
 * disable or enable at once. The admin's own row offers neither a demotion nor a disable (the API refuses
 * them too: 409 self_lockout).
 */
export function UsersAdmin({ initialUsers, currentUserId }: UsersAdminProps) {
  const canChange = useCanChange()
  const [users, setUsers] = useState(initialUsers)
  const [chosenRole, setChosenRole] = useState<Record<string, UserRole>>({})
  const change = useConfirmedChange<Pending>({
    failure: 'The change failed.',
    apply: async (p) => {
      if ('role' in p.change) {
        await patchUser(p.user.id, p.change)
        setChosenRole((c) => ({ ...c, [p.user.id]: p.user.role }))
        return `${p.user.email}: ${describe(p.change)} awaits a second admin: it applies once another admin confirms it on the Changes page.`
      }
      const updated = await patchUser(p.user.id, p.change)
      setUsers((all) => all.map((u) => (u.id === updated.id ? updated : u)))
      return `${updated.email}: ${describe(p.change)}. Their sessions end at their next request.`
    },
  })
  const { pending, setPending, busy, message } = change

  return (
    <Card>
      <CardHeader>
        <CardTitle id="users-title">Accounts</CardTitle>
        <CardDescription>
          A role change applies once a second admin confirms it, a disable at once; either takes effect on the
          user&apos;s next request. Every change is audited.
        </CardDescription>
      </CardHeader>
      {message ? (
        <CardContent>
          <Alert tone={message.tone} title={message.text} />
        </CardContent>
      ) : null}
      <CardContent className="p-0">
        <ScrollX label="Users">
          <table className="w-full min-w-[48rem] text-sm" aria-labelledby="users-title">
            <TableHead>
              {['Email', 'Name', 'Sign-in', 'Role', 'Status', ''].map((c) => (
                <ColumnHeader key={c} className="px-3 py-2">
                  {c}
                </ColumnHeader>
              ))}
            </TableHead>
            <tbody>
              {users.map((u) => {
                const self = u.id === currentUserId
                const role = chosenRole[u.id] ?? u.role
                return (
                  <tr key={u.id} className="border-t border-stone-100">
                    <td className="px-3 py-2 font-medium">
                      {u.email}
                      {self ? <span className="ml-2 text-xs text-stone-500">(you)</span> : null}
                    </td>
                    <td className="px-3 py-2">{u.name}</td>
                    <td className="px-3 py-2 text-stone-600">{u.oidcIssuer ? 'SSO (bound)' : 'password / SSO'}</td>
                    <td className="px-3 py-2">
                      <div className="flex items-center gap-2">
                        <select
                          aria-label={`Role of ${u.email}`}
                          value={role}
                          disabled={busy || self || !canChange}
                          onChange={(e) => setChosenRole((c) => ({ ...c, [u.id]: e.target.value as UserRole }))}
                          className="h-8 rounded-md border border-stone-300 bg-white px-2"
                        >
                          {userRoles.map((r) => (
                            <option key={r} value={r}>
                              {r}
                            </option>
                          ))}
                        </select>
                        {canChange && role !== u.role ? (
                          <Button
                            size="sm"
                            variant="primary"
                            disabled={busy}
                            onClick={() => setPending({ user: u, change: { role } })}
                          >
                            Change role
                          </Button>
                        ) : null}
                      </div>
                    </td>
                    <td className="px-3 py-2">
                      {u.disabled ? <Badge tone="danger">disabled</Badge> : <Badge tone="neutral">active</Badge>}
                    </td>
                    <td className="px-3 py-2 text-right">
                      {self || !canChange ? null : (
                        <Button
                          size="sm"
                          variant="secondary"
                          disabled={busy}
                          aria-label={`${u.disabled ? 'Enable' : 'Disable'} ${u.email}`}
                          onClick={() => setPending({ user: u, change: { disabled: !u.disabled } })}
                        >
                          {u.disabled ? 'Enable' : 'Disable'}
                        </Button>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </ScrollX>
      </CardContent>
      <ConfirmDialog
        title={pending ? `${capitalize(describe(pending.change))} for ${pending.user.email}?` : ''}
        confirmLabel={pending ? capitalize(describe(pending.change)) : 'Confirm'}
        dismissLabel="Not now"
        tone={pending && 'disabled' in pending.change && pending.change.disabled ? 'danger' : 'primary'}
        {...change.dialog}
      >
        {pending && 'role' in pending.change ? <p>The new role applies once another admin confirms it.</p> : null}
        <p>
          Every session this user holds then ends at their next request; they sign in again to continue
          {pending && 'disabled' in pending.change && pending.change.disabled ? ' (a disabled user cannot)' : ''}.
        </p>
      </ConfirmDialog>
    </Card>
  )
}

function describe(change: Pending['change']): string {
  if ('role' in change) return `change the role to ${change.role}`
  return change.disabled ? 'disable the user' : 'enable the user'
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}
