import { credentials, expect, test } from './fixtures'

test.describe('sign in through the real login page', () => {
  test('staff signs in and lands on their mints; the admin page is refused', async ({ page }) => {
    await page.goto('/')
    await expect(page).toHaveURL(/\/login/)
    await page.getByLabel('Email').fill(credentials.staff.email)
    await page.getByLabel('Password').fill(credentials.staff.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/mints/)
    await expect(page.getByText(credentials.staff.email)).toBeVisible()

    await page.goto('/admin')
    await expect(page.getByRole('heading', { name: /not allowed|forbidden/i })).toBeVisible()
  })

  test('admin signs in and reaches the admin dashboard', async ({ page }) => {
    await page.goto('/login')
    await page.getByLabel('Email').fill(credentials.admin.email)
    await page.getByLabel('Password').fill(credentials.admin.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/admin/)
    await expect(page.getByRole('heading', { name: /admin dashboard/i })).toBeVisible()
  })

  test('a wrong password is refused with a clear message', async ({ page }) => {
    await page.goto('/login')
    await page.getByLabel('Email').fill(credentials.staff.email)
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    // Next's route announcer is an empty role=alert on every page: filter by text
    await expect(page.getByRole('alert').filter({ hasText: /invalid email or password/i })).toBeVisible()
    await expect(page).toHaveURL(/\/login/)
  })

  test('the API answers 401 without a session and the ready probe is up', async ({ request, baseURL }) => {
    const res = await request.get(`${baseURL}/api/gold/mint`)
    expect(res.status()).toBe(401)
    expect(await res.json()).toMatchObject({ error: { code: 'unauthenticated' } })
    const ready = await request.get(`${baseURL}/api/ready`)
    expect(ready.status()).toBe(200)
  })
})
