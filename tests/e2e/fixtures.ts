import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { type APIRequestContext, test as base, expect, type Page, request as playwrightRequest } from '@playwright/test'
import { type DevKeyName, devKey } from '../../lib/keys/devKeys'
import { mintApprovalSchema } from '../../lib/web/signing/apiTypes'
import { type TypedDataJson, toViemTypedData } from '../../lib/web/signing/toViemTypedData'
import type { ApiBarListImport } from '../../lib/web/vault/apiTypes'

export type Role = 'staff' | 'approver' | 'approver2' | 'admin' | 'admin2' | 'auditor'

export const credentials: Record<Role, { email: string; password: string }> = {
  staff: { email: 'staff@mintdesk.local', password: 'staff-dev-password' },
  approver: { email: 'approver@mintdesk.local', password: 'approver-dev-password' },
  // the second approver: the second signature of an order of 10,000 oz or more
  approver2: { email: 'approver2@mintdesk.local', password: 'approver2-dev-password' },
  admin: { email: 'admin@mintdesk.local', password: 'admin-dev-password' },
  // the second admin: confirms the first admin's control changes (docs/api.md "Control changes need a second admin")
  admin2: { email: 'admin2@mintdesk.local', password: 'admin2-dev-password' },
  // reads what an admin reads, changes nothing
  auditor: { email: 'auditor@mintdesk.local', password: 'auditor-dev-password' },
}

export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL
  if (!url)
    throw new Error('E2E_BASE_URL is not set: run through playwright.config.ts (its globalSetup boots the stack)')
  return url
}

/** Signs in through next-auth's credentials endpoint (no clicks): the cookie lands in the page's context. */
export async function loginAs(page: Page, role: Role): Promise<void> {
  const request = page.context().request
  const csrf = (await (await request.get(`${baseUrl()}/api/auth/csrf`)).json()) as { csrfToken: string }
  const res = await request.post(`${baseUrl()}/api/auth/callback/credentials`, {
    form: {
      csrfToken: csrf.csrfToken,
      email: credentials[role].email,
      password: credentials[role].password,
      callbackUrl: baseUrl(),
    },
    headers: { origin: baseUrl() },
    maxRedirects: 0,
  })
  expect([200, 302]).toContain(res.status())
  const session = (await (await request.get(`${baseUrl()}/api/auth/session`)).json()) as {
    user?: { email?: string }
  } | null
  expect(session?.user?.email).toBe(credentials[role].email)
}

/** A fresh API cookie jar signed in as `role` (next-auth's credentials flow, no page); dispose it when done. */
export async function signedInRequest(role: Role): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL: baseUrl() })
  const csrf = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string }
  await ctx.post('/api/auth/callback/credentials', {
    form: {
      csrfToken: csrf.csrfToken,
      email: credentials[role].email,
      password: credentials[role].password,
      callbackUrl: baseUrl(),
    },
    headers: { origin: baseUrl() },
    maxRedirects: 0,
  })
  const session = (await (await ctx.get('/api/auth/session')).json()) as { user?: { email?: string } } | null
  expect(session?.user?.email).toBe(credentials[role].email)
  return ctx
}

/** A run-unique name (vaults, receipts): the e2e stack's data outlives one test. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`.toUpperCase()
}

/** A bar as a test lists it; the request form and the API name it by serial + refiner. */
export type TestBar = { serial: string; refiner: string; year: number; grossOz: string; fineness: string }

/** Bars `<prefix>-1`..`<prefix>-count`, Valcambi SA 2025, 401.125 oz at 999.9 (401.084 fine oz each). */
export function testBars(prefix: string, count: number): TestBar[] {
  return Array.from({ length: count }, (_, i) => ({
    serial: `${prefix}-${i + 1}`,
    refiner: 'Valcambi SA',
    year: 2025,
    grossOz: '401.125',
    fineness: '999.9',
  }))
}

export type ImportBarListParameters = { vault: string; bars: readonly TestBar[]; asOf?: Date }

/**
 * Imports a bar list through the admin API (POST /api/admin/vault/bar-lists, JSON): the
 * way a spec that only needs an order to exist gets bars of its own, in a vault of its
 * own, without taking any of LDN-1's dev bars. The list is signed as its custodian signs
 * it: the typed data from POST /api/vault/bar-lists/typed-data, signed with the dev
 * custodian's key (index 12), sent as the `Custodian-Signature` header. `admin`: a request
 * context signed in as an admin (a page's `page.context().request` after loginAs(page,
 * 'admin'), or signedInRequest('admin')).
 */
export async function importBarList(admin: APIRequestContext, p: ImportBarListParameters): Promise<ApiBarListImport> {
  const body = JSON.stringify({ vault: p.vault, asOf: (p.asOf ?? new Date()).toISOString(), bars: p.bars })
  const headers = { origin: baseUrl(), 'content-type': 'application/json' }
  const typed = await admin.post(`${baseUrl()}/api/vault/bar-lists/typed-data`, { headers, data: body })
  expect(typed.status(), await typed.text()).toBe(200)
  const signature = await devKey('custodian').signTypedData(toViemTypedData((await typed.json()) as TypedDataJson))
  const res = await admin.post(`${baseUrl()}/api/admin/vault/bar-lists`, {
    headers: { ...headers, 'custodian-signature': signature },
    data: body,
  })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()) as ApiBarListImport
}

/** A new vault holding `count` bars of its own (see testBars), imported as one list. */
export async function stockTestVault(
  admin: APIRequestContext,
  { prefix, count }: { prefix: string; count: number },
): Promise<{ vault: string; bars: TestBar[] }> {
  const vault = uniqueName(prefix)
  const bars = testBars(vault, count)
  await importBarList(admin, { vault, bars })
  return { vault, bars }
}

/**
 * Puts an address on the recipient allowlist as two admins do: `admin` asks (POST
 * /api/admin/recipients, 202 awaiting a second admin) and admin2 confirms (POST
 * /api/admin/changes/{changeId}/confirm). One listed already (409, at either step) is fine.
 */
export async function allowRecipient(
  admin: APIRequestContext,
  address: string,
  label = 'e2e recipient',
): Promise<void> {
  const res = await admin.post(`${baseUrl()}/api/admin/recipients`, {
    headers: { origin: baseUrl() },
    data: { address, label },
  })
  expect([202, 409], await res.text()).toContain(res.status())
  if (res.status() === 409) return
  await confirmChangeAsAdmin2((await res.json()) as { changeId: string }, { alreadyDone: [409] })
}

/**
 * The second admin's confirm of a control change (a 202 `{ changeId }` answer), through the
 * API with admin2's own session; `alreadyDone`: statuses that mean another run made the
 * same change meanwhile (e.g. 409 for a recipient listed since).
 */
export async function confirmChangeAsAdmin2(
  change: { changeId: string },
  { alreadyDone = [] }: { alreadyDone?: number[] } = {},
): Promise<void> {
  const admin2 = await signedInRequest('admin2')
  try {
    const res = await admin2.post(`/api/admin/changes/${change.changeId}/confirm`, { headers: { origin: baseUrl() } })
    expect([200, ...alreadyDone], await res.text()).toContain(res.status())
  } finally {
    await admin2.dispose()
  }
}

/** The 202 answer of POST /api/gold/mint: a job at once, or none while the order awaits a second person. */
export type MintAccepted = { orderId: string; jobId?: string; status: 'pending' | 'awaiting_approval' }

/**
 * Signs an order's MintIntent as `role` with their dev key (its wallet would): the typed data from GET
 * /api/gold/mint/{orderId}/approval, the signature to POST .../approve. Returns the approve answer's status and
 * body, for the caller to check.
 */
export async function signApproval(
  orderId: string,
  role: Extract<Role, 'approver' | 'approver2' | 'admin' | 'admin2'>,
): Promise<{ status: number; body: string }> {
  const ctx = await signedInRequest(role)
  try {
    const approval = await ctx.get(`/api/gold/mint/${orderId}/approval`)
    expect(approval.status(), await approval.text()).toBe(200)
    const { typedData } = mintApprovalSchema.parse(await approval.json())
    const signature = await devKey(role as DevKeyName).signTypedData(toViemTypedData(typedData))
    const res = await ctx.post(`/api/gold/mint/${orderId}/approve`, {
      headers: { origin: baseUrl() },
      data: { signature },
    })
    return { status: res.status(), body: await res.text() }
  } finally {
    await ctx.dispose()
  }
}

/**
 * An accepted order, past the four-eyes step: one awaiting approval is signed by as many
 * dev approvers as GoldMinter requires (approver@, then approver2@; never its requester),
 * and its mint_send job is found through the admin jobs search. Returns the order's job id
 * either way.
 */
export async function settleApproval(accepted: MintAccepted): Promise<{ orderId: string; jobId: string }> {
  if (accepted.jobId !== undefined && accepted.status === 'pending')
    return { orderId: accepted.orderId, jobId: String(accepted.jobId) }
  const approver = await signedInRequest('approver')
  const approval = await approver.get(`/api/gold/mint/${accepted.orderId}/approval`)
  expect(approval.status(), await approval.text()).toBe(200)
  const { required } = mintApprovalSchema.parse(await approval.json())
  await approver.dispose()
  const signers = (['approver', 'approver2'] as const).slice(0, required)
  expect(signers.length, `${required} approvals required`).toBe(required)
  for (const role of signers) {
    const approved = await signApproval(accepted.orderId, role)
    expect(approved.status, approved.body).toBe(200)
  }
  const admin = await signedInRequest('admin')
  const jobs = await admin.get(`/api/admin/jobs?q=${accepted.orderId}`)
  expect(jobs.status(), await jobs.text()).toBe(200)
  const job = ((await jobs.json()) as { items: { id: string; task: string }[] }).items.find(
    (j) => j.task === 'mint_send',
  )
  await admin.dispose()
  expect(job, `the mint_send job of order ${accepted.orderId}`).toBeDefined()
  return { orderId: accepted.orderId, jobId: String(job?.id) }
}

// Every run takes the screenshots; they land in docs/screenshots/ (committed, linked from
// the README) only with UPDATE_SCREENSHOTS=1, so a plain test run leaves the tree clean.
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots')
  : path.resolve(import.meta.dirname, '..', '..', '.data', 'test-results', 'screenshots')

/** A full-page screenshot for the docs (see SCREENSHOTS above). */
/** How far the page scrolls sideways: 0 when it fits the window. */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
}

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const file = path.join(SCREENSHOTS, name)
  mkdirSync(path.dirname(file), { recursive: true })
  await page.screenshot({ path: file, fullPage: true })
}

export const test = base.extend<{ baseURL: string }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(baseUrl())
  },
})

export { expect }
