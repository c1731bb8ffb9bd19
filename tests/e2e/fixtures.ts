import { test as base, expect, type Page } from '@playwright/test'

export type Role = 'staff' | 'admin'

export const credentials: Record<Role, { email: string; password: string }> = {
  staff: { email: 'staff@mintdesk.local', password: 'staff-dev-password' },
  admin: { email: 'admin@mintdesk.local', password: 'admin-dev-password' },
}

export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL
  if (!url) throw new Error('E2E_BASE_URL is not set: run through playwright.config.ts (its globalSetup boots the stack)')
  return url
}

/** Signs in through next-auth's credentials endpoint (no clicks): the cookie lands in the page's context. */
export async function loginAs(page: Page, role: Role): Promise<void> {
  const request = page.context().request
  const csrf = (await (await request.get(`${baseUrl()}/api/auth/csrf`)).json()) as { csrfToken: string }
  const res = await request.post(`${baseUrl()}/api/auth/callback/credentials`, {
    form: { csrfToken: csrf.csrfToken, email: credentials[role].email, password: credentials[role].password, callbackUrl: baseUrl() },
    headers: { origin: baseUrl() },
    maxRedirects: 0,
  })
  expect([200, 302]).toContain(res.status())
  const session = (await (await request.get(`${baseUrl()}/api/auth/session`)).json()) as { user?: { email?: string } } | null
  expect(session?.user?.email).toBe(credentials[role].email)
}

export const test = base.extend<{ baseURL: string }>({
  baseURL: async ({}, use) => {
    await use(baseUrl())
  },
})

export { expect }
