import type { Metadata } from 'next'
import { redirect } from 'next/navigation'
import { LoginForm } from '@/components/auth/LoginForm'
import { loginErrorMessage } from '@/components/auth/loginMessages'
import { authMethods } from '@/lib/web/auth/authMethods'
import { getSessionUser } from '@/lib/web/auth/getSessionUser'
import { homePathFor } from '@/lib/web/auth/homePathFor'
import { safeCallbackUrl } from '@/lib/web/auth/safeCallbackUrl'
import { DEV_ADMIN_EMAIL, DEV_ADMIN2_EMAIL, DEV_AUDITOR_EMAIL, DEV_STAFF_EMAIL } from '@/lib/web/auth/seedDevUsers'
import { getConfig } from '@/lib/web/config/getConfig'

export const metadata: Metadata = { title: 'Sign in' }

type SearchParams = Record<string, string | string[] | undefined>

export default async function LoginPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams
  const config = getConfig('web')
  const callbackUrl = safeCallbackUrl(first(params.callbackUrl), { ownOrigin: config.appUrl })

  const user = await getSessionUser()
  if (user) redirect(callbackUrl ?? homePathFor(user.role))

  const methods = authMethods(config)
  const devLogins = config.devPasswords
    ? [
        { label: 'Staff', email: DEV_STAFF_EMAIL, password: config.devPasswords.staff },
        { label: 'Admin', email: DEV_ADMIN_EMAIL, password: config.devPasswords.admin },
        { label: 'Second admin', email: DEV_ADMIN2_EMAIL, password: config.devPasswords.admin2 },
        { label: 'Auditor', email: DEV_AUDITOR_EMAIL, password: config.devPasswords.auditor },
      ]
    : []

  return (
    <div className="mx-auto max-w-sm pt-8">
      <h1 className="mb-6 text-center">Sign in to mintdesk</h1>
      <LoginForm
        callbackUrl={callbackUrl}
        credentials={methods.credentials}
        oidc={methods.oidc}
        initialError={loginErrorMessage(first(params.error), first(params.code))}
        devLogins={devLogins}
      />
    </div>
  )
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
