import path from 'node:path'
import { headerOf, readMailDir } from '../helpers/readEml'
import { baseUrl, expect } from './fixtures'

export type WaitForMailParameters = {
  /** the recipient, as the To header has it */
  to: string
  /** the order whose page the message links to */
  orderId: string
  /** a part of its subject, to tell two messages about one order apart */
  subject?: string
  timeoutMs?: number
}

/**
 * The first message the stack's SMTP sink kept (a .eml under its data folder's mail/) for `to` about an order,
 * read as a reader sees it (tests/helpers/readEml.ts); waits for the worker to send it.
 */
export async function waitForMail({
  to,
  orderId,
  subject,
  timeoutMs = 30_000,
}: WaitForMailParameters): Promise<string> {
  const dataDir = process.env.E2E_DATA_DIR
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the browser tests through playwright (globalSetup)')
  const link = `${baseUrl()}/mints/${orderId}`
  const find = () =>
    readMailDir(path.join(dataDir, 'mail')).find(
      (m) =>
        headerOf(m, 'To') === to &&
        m.includes(link) &&
        (subject === undefined || headerOf(m, 'Subject')?.includes(subject)),
    )
  await expect
    .poll(() => find() !== undefined, { timeout: timeoutMs, message: `an email to ${to} about ${orderId}` })
    .toBe(true)
  return find() as string
}
