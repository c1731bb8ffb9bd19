import { and, asc, eq, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { DbOrTx } from '@/db/client'
import { type MintStatus, mintOrderBars, mintOrders } from '@/db/schema/mint'
import { users } from '@/db/schema/users'
import { vaultBars } from '@/db/schema/vault'
import type { ApiMintBar } from './apiTypes'
import { toApiMintBar } from './toApiMintBar'

export type ReadMintOrderParameters = {
  /** a lowercase uuid (callers check it: a malformed id is their 404) */
  orderId: string
  /** only an order this user requested (staff); omitted: any order (approvers, admins) */
  requestedBy?: string
}

/** An order as stored, with its requester's email and its bars (request order) in the one bar format. */
export type MintOrderRecord = {
  id: string
  status: MintStatus
  toAddress: string
  /** numeric, as exact text */
  amountWei: string
  vault: string
  receiptRef: string
  documentSha256: string
  requestedByEmail: string
  createdAt: Date
  updatedAt: Date
  submittedAt: Date | null
  confirmedAt: Date | null
  failureReason: string | null
  signerAddress: string | null
  nonce: bigint | null
  txHash: string | null
  blockNumber: bigint | null
  /** four eyes: who approved it and when (null until approved) */
  approvedByEmail: string | null
  approvedAt: Date | null
  /** or who rejected it, when and why */
  rejectedByEmail: string | null
  rejectedAt: Date | null
  rejectionReason: string | null
  bars: ApiMintBar[]
}

// the second person of an order, as its approver or its rejecter
const approvers = alias(users, 'approvers')
const rejecters = alias(users, 'rejecters')

export type ReadMintOrderReturnType = MintOrderRecord | null

/**
 * THE reader of one order: the staff's order page (getMintOrderOrThrow) and the admin's
 * job detail (getJobDetailOrThrow) both read an order here, so they show the same
 * order, bars and amount the same way. Null when there is no such order (or it is not
 * the given requester's).
 */
export async function readMintOrder(db: DbOrTx, p: ReadMintOrderParameters): Promise<ReadMintOrderReturnType> {
  const visible: SQL | undefined =
    p.requestedBy === undefined
      ? eq(mintOrders.id, p.orderId)
      : and(eq(mintOrders.id, p.orderId), eq(mintOrders.requestedBy, p.requestedBy))
  // both at once: the bars of an order the caller may not see are read and dropped
  const [[order], bars] = await Promise.all([
    db
      .select({
        id: mintOrders.id,
        status: mintOrders.status,
        toAddress: mintOrders.toAddress,
        amountWei: mintOrders.amountWei,
        vault: mintOrders.vault,
        receiptRef: mintOrders.receiptRef,
        documentSha256: mintOrders.documentSha256,
        requestedByEmail: users.email,
        createdAt: mintOrders.createdAt,
        updatedAt: mintOrders.updatedAt,
        submittedAt: mintOrders.submittedAt,
        confirmedAt: mintOrders.confirmedAt,
        failureReason: mintOrders.failureReason,
        signerAddress: mintOrders.signerAddress,
        nonce: mintOrders.nonce,
        txHash: mintOrders.txHash,
        blockNumber: mintOrders.blockNumber,
        approvedByEmail: approvers.email,
        approvedAt: mintOrders.approvedAt,
        rejectedByEmail: rejecters.email,
        rejectedAt: mintOrders.rejectedAt,
        rejectionReason: mintOrders.rejectionReason,
      })
      .from(mintOrders)
      .innerJoin(users, eq(users.id, mintOrders.requestedBy))
      .leftJoin(approvers, eq(approvers.id, mintOrders.approvedBy))
      .leftJoin(rejecters, eq(rejecters.id, mintOrders.rejectedBy))
      .where(visible)
      .limit(1),
    db
      .select({
        serial: vaultBars.serial,
        refiner: vaultBars.refiner,
        year: vaultBars.year,
        grossOz: vaultBars.grossOz,
        fineness: vaultBars.fineness,
        fineOz: vaultBars.fineOz,
      })
      .from(mintOrderBars)
      .innerJoin(vaultBars, eq(vaultBars.id, mintOrderBars.barId))
      .where(eq(mintOrderBars.orderId, p.orderId))
      .orderBy(asc(mintOrderBars.position)),
  ])
  if (!order) return null
  return { ...order, bars: bars.map(toApiMintBar) }
}
