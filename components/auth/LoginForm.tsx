'use client'

import { signIn } from 'next-auth/react'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import type { DevLogin } from '@/lib/web/auth/devLogins'
import { INVALID_CREDENTIALS_MESSAGE, THROTTLED_MESSAGE, UNREACHABLE_MESSAGE } from './loginMessages'

export type LoginFormProps = {
  /** a same-site path to go to after sign-in (already checked by the page); null -> `/`, which sends each role home */
  callbackUrl: string | null
  /** email + password sign-in is on */
  credentials: boolean
  /** single sign-on is configured */
  oidc: boolean
  /** an error carried in the URL (`?error=`), shown until the next try */
  initialError: string | null
  /** the seeded dev users; empty outside dev mode */
  devLogins: DevLogin[]
}

/**
 * Email + password sign-in through next-auth's credentials callback (CSRF token
 * included by `signIn`), plus SSO when configured. The inputs are uncontrolled so text
 * typed before hydration is kept; the submit button is enabled only once hydrated, so
 * the form can never be submitted natively (the password never lands in a URL).
 */
export function LoginForm({ callbackUrl, credentials, oidc, initialError, devLogins }: LoginFormProps) {
  const [error, setError] = useState<string | null>(initialError)
  const [pending, setPending] = useState(false)
  const [hydrated, setHydrated] = useState(false)
  const emailRef = useRef<HTMLInputElement>(null)
  const passwordRef = useRef<HTMLInputElement>(null)
  const emailId = useId()
  const passwordId = useId()
  const target = callbackUrl ?? '/'

  useEffect(() => setHydrated(true), [])

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const email = String(form.get('email') ?? '').trim()
    const password = String(form.get('password') ?? '')
    if (email === '' || password === '') {
      setError(INVALID_CREDENTIALS_MESSAGE)
      return
    }
    setPending(true)
    setError(null)
    try {
      const result = await signIn('credentials', { email, password, redirect: false, redirectTo: target })
      if (!result || result.error) {
        setError(result?.code === 'throttled' ? THROTTLED_MESSAGE : INVALID_CREDENTIALS_MESSAGE)
        if (passwordRef.current) passwordRef.current.value = ''
        passwordRef.current?.focus()
        setPending(false)
        return
      }
      // a full load, so the server renders the layout with the new session
      window.location.assign(target)
    } catch {
      setError(UNREACHABLE_MESSAGE)
      setPending(false)
    }
  }

  return (
    <div className="space-y-4">
      <Card>
        <CardContent className="space-y-4 py-6">
          {error ? <Alert tone="error">{error}</Alert> : null}
          {credentials ? (
            <form method="post" onSubmit={onSubmit} className="space-y-4" noValidate>
              <div>
                <Label htmlFor={emailId}>Email</Label>
                <Input ref={emailRef} id={emailId} name="email" type="email" autoComplete="username" required />
              </div>
              <div>
                <Label htmlFor={passwordId}>Password</Label>
                <Input
                  ref={passwordRef}
                  id={passwordId}
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                />
              </div>
              <Button type="submit" className="w-full" disabled={!hydrated || pending} aria-busy={pending}>
                {pending ? 'Signing in…' : 'Sign in'}
              </Button>
            </form>
          ) : null}
          {oidc ? (
            <Button
              variant={credentials ? 'secondary' : 'primary'}
              className="w-full"
              disabled={!hydrated || pending}
              onClick={() => {
                setPending(true)
                void signIn('oidc', { redirectTo: target })
              }}
            >
              Sign in with single sign-on
            </Button>
          ) : null}
          {!credentials && !oidc ? <Alert tone="warning">No sign-in method is configured.</Alert> : null}
        </CardContent>
      </Card>

      {devLogins.length > 0 ? (
        <section aria-labelledby="dev-logins" className="rounded-md border border-dashed border-stone-300 p-4 text-sm">
          <h2 id="dev-logins" className="font-medium text-stone-700">
            Dev logins (dev mode only)
          </h2>
          <ul className="mt-2 space-y-2">
            {devLogins.map((login) => (
              <li key={login.email} className="flex items-center justify-between gap-3">
                <span>
                  <span className="font-medium">{login.label}:</span>{' '}
                  <code className="text-stone-700">{login.email}</code> /{' '}
                  <code className="text-stone-700">{login.password}</code>
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={!hydrated}
                  onClick={() => {
                    if (emailRef.current) emailRef.current.value = login.email
                    if (passwordRef.current) passwordRef.current.value = login.password
                  }}
                >
                  Use {login.label.toLowerCase()} login
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  )
}
