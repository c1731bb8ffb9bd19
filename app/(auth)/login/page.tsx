import type { Metadata } from 'next'
import { redirect } from 'next/navigation'
import { LoginForm } from '@/components/auth/LoginForm'
import { loginErrorMessage } from '@/components/auth/loginMessages'
import { authMethods } from '@/lib/web/auth/authMethods'
import { devLogins } from '@/lib/web/auth/devLogins'
import { getSessionUser } from '@/lib/web/auth/getSessionUser'
import { homePathFor } from '@/lib/web/auth/homePathFor'
import { safeCallbackUrl } from '@/lib/web/auth/safeCallbackUrl'
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

  return (
    <div className="mx-auto max-w-sm pt-8">
      <h1 className="mb-6 text-center">Sign in to mintdesk</h1>
      <LoginForm
        callbackUrl={callbackUrl}
        credentials={methods.credentials}
        oidc={methods.oidc}
        initialError={loginErrorMessage(first(params.error), first(params.code))}
        devLogins={devLogins(config.devPasswords)}
      />
    </div>
  )
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
