import { sql } from 'drizzle-orm'
import type { Db } from '@/db/client'
import { createMintOrder } from '@/lib/web/mint/createMintOrder'
import { stockBars } from '@/tests/helpers/barLists'
import { buildMintRequest, TEST_RECIPIENT } from '@/tests/helpers/buildMintRequest'
import { allowRecipients } from '@/tests/helpers/recipients'
import { intakeSession, type TestUsers } from '@/tests/helpers/users'

// TEST ONLY: an order made through the real intake, its bars first put on the vault's list.

let serial = 0

export async function orderWithListedBars(
  db: Db,
  p: { users: TestUsers; vault?: string; bars?: number },
): Promise<{ orderId: string; serials: string[] }> {
  const vault = p.vault ?? 'MOV-1'
  const serials = Array.from({ length: p.bars ?? 2 }, () => `MV-${process.pid}-${++serial}`)
  await stockBars(db, { vault, bars: serials.map((s) => ({ serial: s })) })
  await allowRecipients(db, [TEST_RECIPIENT]) // the intake refuses a recipient off the allowlist
  const accepted = await createMintOrder(db, {
    session: intakeSession(p.users.staff),
    maxAttempts: 5,
    request: buildMintRequest({ vault, bars: serials.map((s) => ({ serial: s })) }),
  })
  return { orderId: accepted.orderId, serials }
}

export async function barStates(
  db: Db,
  serials: readonly string[],
): Promise<{ serial: string; status: string; order_id: string | null }[]> {
  return db.execute<{ serial: string; status: string; order_id: string | null }>(sql`
    select serial, status::text as status, order_id::text as order_id from vault_bars
    where serial = any(${`{${serials.join(',')}}`}::text[]) order by serial`)
}
