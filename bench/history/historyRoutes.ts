import type { Db } from '@/db/client'
import { readReserveFigures } from '@/lib/reserves/readReserveFigures'
import { getJobDetailOrThrow } from '@/lib/web/admin/getJobDetailOrThrow'
import { listJobs } from '@/lib/web/admin/listJobs'
import { readJobMetrics } from '@/lib/web/admin/readJobMetrics'
import { listAudit } from '@/lib/web/audit/listAudit'
import type { SessionUser } from '@/lib/web/auth/SessionUser'
import { getMintOrderOrThrow } from '@/lib/web/mint/getMintOrderOrThrow'
import { listMintOrders } from '@/lib/web/mint/listMintOrders'
import { listWebhookDeliveries } from '@/lib/web/notifications/listWebhookDeliveries'
import { listWebhookEndpoints } from '@/lib/web/notifications/listWebhookEndpoints'
import { listDeposits } from '@/lib/web/redemptions/listDeposits'
import { listRedemptions } from '@/lib/web/redemptions/listRedemptions'
import { listBackedMints } from '@/lib/web/reserves/listBackedMints'
import { readLatestReserveCheck } from '@/lib/web/reserves/readLatestReserveCheck'
import { readRedeemedWei } from '@/lib/web/reserves/readRedeemedWei'
import { listVaultBars } from '@/lib/web/vault/listVaultBars'
import type { HistorySamples } from './seed/readHistorySamples'

/** Which target a route is held to (historyTargets.ts). */
export type HistoryRouteKind = 'admin' | 'reserves' | 'lookup'

export type HistoryRoute = {
  /** the route and its query, as the report names it */
  name: string
  kind: HistoryRouteKind
  /** the web's own data function the route handler (or page) calls, on the i-th call; resolves to its answer */
  call: (db: Db, i: number) => Promise<unknown>
  /** what a right answer holds on the seeded data (the integration test checks it) */
  check: (answer: unknown) => boolean
}

const itemsOf = (answer: unknown): unknown[] => (answer as { items?: unknown[] }).items ?? []
const someItems = (answer: unknown) => itemsOf(answer).length > 0

/**
 * Every page and API read the history run measures, each through the data function its route handler calls (the
 * handler adds only the session check and the JSON): the admin lists and searches, the job and order pages, the
 * dashboard's metrics, the reserves API's database part and the public lookup.
 */
export function historyRoutes(s: HistorySamples): HistoryRoute[] {
  const admin: SessionUser = { id: s.adminUserId, email: 'admin@history.local', role: 'admin' }
  const staff: SessionUser = { id: s.staffUserId, email: 'staff1@history.local', role: 'staff' }
  const pick = <T>(list: T[], i: number): T => list[i % list.length] as T
  return [
    {
      name: 'GET /api/admin/jobs',
      kind: 'admin',
      call: (db) => listJobs(db, { housekeeping: 'hide' }),
      check: someItems,
    },
    {
      name: 'GET /api/admin/jobs?state=done&task=order_confirm',
      kind: 'admin',
      call: (db) => listJobs(db, { state: 'done', task: 'order_confirm', housekeeping: 'hide' }),
      check: someItems,
    },
    {
      name: 'GET /api/admin/jobs?state=dead (dead letters)',
      kind: 'admin',
      call: (db) => listJobs(db, { state: 'dead', housekeeping: 'hide' }),
      check: someItems,
    },
    {
      name: 'GET /api/admin/jobs?q=<order id>',
      kind: 'admin',
      call: (db, i) => listJobs(db, { q: pick(s.confirmedOrderIds, i), housekeeping: 'hide' }),
      check: someItems,
    },
    {
      name: 'GET /api/admin/jobs?q=<recipient>',
      kind: 'admin',
      call: (db) => listJobs(db, { q: s.recipient, housekeeping: 'hide' }),
      check: someItems,
    },
    {
      name: 'GET /api/admin/jobs?q=<tx hash>',
      kind: 'admin',
      call: (db) => listJobs(db, { q: s.txHash, housekeeping: 'hide' }),
      check: someItems,
    },
    {
      name: 'GET /api/admin/jobs?q=<error text>',
      kind: 'admin',
      call: (db) => listJobs(db, { q: 'reserves exceeded', housekeeping: 'hide' }),
      check: someItems,
    },
    {
      name: 'GET /api/admin/jobs/{jobId} (job page)',
      kind: 'admin',
      call: (db, i) => getJobDetailOrThrow(db, { jobId: BigInt(pick(s.confirmedJobIds, i)) }),
      check: (a) => ((a as { timeline?: unknown[] }).timeline?.length ?? 0) >= 10,
    },
    {
      name: 'GET /api/admin/jobs/{jobId} (a dead letter)',
      kind: 'admin',
      call: (db) => getJobDetailOrThrow(db, { jobId: BigInt(s.deadJobId) }),
      check: (a) => ((a as { errors?: unknown[] }).errors?.length ?? 0) > 0,
    },
    {
      name: 'GET /api/admin/metrics (dashboard)',
      kind: 'admin',
      call: (db) => readJobMetrics(db, { heartbeatMs: 5_000, staleAfterMs: 60_000 }),
      check: (a) => ((a as { deadLetters?: { count: number } }).deadLetters?.count ?? 0) > 0,
    },
    { name: 'GET /api/admin/audit', kind: 'admin', call: (db) => listAudit(db, {}), check: someItems },
    {
      name: 'GET /api/admin/audit?target=order:<id>',
      kind: 'admin',
      call: (db) => listAudit(db, { target: `order:${s.auditTargetOrderId}` }),
      check: someItems,
    },
    {
      name: 'GET /api/admin/audit?actor=approver3',
      kind: 'admin',
      call: (db) => listAudit(db, { actor: 'approver3' }),
      check: someItems,
    },
    {
      name: 'GET /api/admin/audit?action=job.',
      kind: 'admin',
      call: (db) => listAudit(db, { action: 'job.' }),
      check: someItems,
    },
    {
      name: 'GET /api/admin/audit?from=&to= (one day, half a year ago)',
      kind: 'admin',
      call: (db) => {
        const to = new Date(Date.now() - 182 * 86_400_000)
        return listAudit(db, { from: new Date(to.getTime() - 86_400_000), to })
      },
      check: someItems,
    },
    {
      name: 'GET /api/gold/mint (admin)',
      kind: 'admin',
      call: (db) => listMintOrders(db, { user: admin }),
      check: someItems,
    },
    {
      name: 'GET /api/gold/mint?status=failed',
      kind: 'admin',
      call: (db) => listMintOrders(db, { user: admin, status: 'failed' }),
      check: someItems,
    },
    {
      name: 'GET /api/gold/mint (staff: their own)',
      kind: 'admin',
      call: (db) => listMintOrders(db, { user: staff }),
      check: someItems,
    },
    {
      name: 'GET /api/gold/mint/{orderId} (order page)',
      kind: 'admin',
      call: (db, i) => getMintOrderOrThrow(db, { orderId: pick(s.confirmedOrderIds, i), user: admin }),
      check: (a) => ((a as { timeline?: unknown[] }).timeline?.length ?? 0) >= 10,
    },
    {
      name: 'GET /api/gold/mint/{orderId} (a failed order)',
      kind: 'admin',
      call: (db) => getMintOrderOrThrow(db, { orderId: s.failedOrderId, user: admin }),
      check: (a) => (a as { status?: string }).status === 'failed',
    },
    {
      name: 'GET /api/vault/bars',
      kind: 'admin',
      call: (db) => listVaultBars(db, { user: admin }),
      check: someItems,
    },
    {
      name: 'GET /api/vault/bars?vault=ZRH-1&status=available',
      kind: 'admin',
      call: (db) => listVaultBars(db, { user: admin, vault: 'ZRH-1', status: 'available' }),
      check: someItems,
    },
    {
      name: 'GET /api/vault/bars?q=<serial>',
      kind: 'admin',
      call: (db) => listVaultBars(db, { user: admin, q: s.barSerial }),
      check: someItems,
    },
    {
      name: 'GET /api/gold/redemptions',
      kind: 'admin',
      call: (db) => listRedemptions(db, { limit: 50 }),
      check: someItems,
    },
    { name: 'GET /api/gold/deposits', kind: 'admin', call: (db) => listDeposits(db, { limit: 50 }), check: someItems },
    {
      name: 'GET /api/admin/webhooks (with delivery counts)',
      kind: 'admin',
      call: (db) => listWebhookEndpoints(db),
      check: someItems,
    },
    {
      name: 'GET /api/admin/webhooks/{id}/deliveries',
      kind: 'admin',
      call: (db) => listWebhookDeliveries(db, { endpointId: s.endpointId }),
      check: someItems,
    },
    {
      name: 'GET /api/reserves (database part)',
      kind: 'reserves',
      // the chain's supply is an input here (no chain in the run): the rest is what the route reads
      call: (db) =>
        Promise.all([
          readLatestReserveCheck(db),
          readRedeemedWei(db),
          readReserveFigures(db, {
            supply: { totalSupplyWei: 10n ** 24n, blockNumber: 1_000_000n },
            backingFrom: 'runningTotal',
          }),
        ]),
      check: (a) => (a as [unknown, bigint, { backingWei: bigint }])[2].backingWei > 0n,
    },
    {
      name: 'GET /api/reserves/lookup?address=',
      kind: 'lookup',
      call: (db) => listBackedMints(db, { address: s.recipient }),
      check: (a) => ((a as { mints?: unknown[] }).mints?.length ?? 0) > 0,
    },
    {
      name: 'GET /api/reserves/lookup?tx=',
      kind: 'lookup',
      call: (db) => listBackedMints(db, { tx: s.txHash }),
      check: (a) => ((a as { mints?: unknown[] }).mints?.length ?? 0) === 1,
    },
    {
      name: 'GET /api/reserves/lookup?serial=',
      kind: 'lookup',
      call: (db) => listBackedMints(db, { serial: s.barSerial }),
      check: (a) => ((a as { mints?: unknown[] }).mints?.length ?? 0) === 1,
    },
  ]
}
