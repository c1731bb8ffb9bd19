import { drizzle } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import type { Address, HDAccount } from 'viem'
import * as schema from '../../db/schema'
import type { GoldMinterDomainParameters } from '../../lib/chain/typedData'
import { devKey } from '../../lib/keys/devKeys'
import { buildMintIntentTypedData } from '../../lib/mint/buildMintIntent'
import { readOrderIntent } from '../../lib/web/approvals/readOrderIntent'
import { DEV_APPROVER_EMAIL, DEV_APPROVER2_EMAIL } from '../../lib/web/auth/seedDevUsers'
import { type ApiPostAnswer, type ApiPostPath, buildApiPost } from '../http/buildApiPost'
import { createJsonPoster, type JsonPoster } from '../http/createJsonPoster'
import { signIn } from '../http/signIn'

/** An approver's signature of an order, a path of the contract */
const APPROVE = '/api/gold/mint/{orderId}/approve' satisfies ApiPostPath

export type OrderApprover = {
  /** signs the order's MintIntent and posts it until the order is no longer awaiting approval; throws on a refusal */
  approve: (orderId: string) => Promise<void>
  /** approves every order, `concurrency` at once (one approver's session each) */
  approveAll: (orderIds: readonly string[], concurrency: number) => Promise<void>
  close: () => void
}

export type CreateOrderApproverParameters = {
  sql: postgres.Sql
  baseUrl: string
  /** the stack's environment: DEV_APPROVER_PASSWORD, DEV_APPROVER2_PASSWORD, CHAIN_ID, MINTER_ADDRESS */
  env: Record<string, string>
  maxSockets: number
}

/**
 * The stack's dev approvers (approver@ with dev key 10, approver2@ with dev key 11, bound by the stack) as
 * their wallets approve an order: the order's MintIntent rebuilt from its row and bars
 * (lib/mint/buildMintIntent.ts), signed (EIP-712, GoldMinter's domain), and posted to
 * POST /api/gold/mint/{id}/approve { signature }; the second approver signs only when the
 * answer still says awaiting_approval (an amount at or above the rule's large amount). So the web
 * checks every signature, and the worker again before it relays the order.
 */
export async function createOrderApprover(p: CreateOrderApproverParameters): Promise<OrderApprover> {
  const db = drizzle(p.sql, { schema })
  const domain: GoldMinterDomainParameters = {
    chainId: Number(need(p.env, 'CHAIN_ID')),
    verifyingContract: need(p.env, 'MINTER_ADDRESS') as Address,
  }
  const approvers: { poster: JsonPoster; key: HDAccount }[] = []
  for (const [email, password, key] of [
    [DEV_APPROVER_EMAIL, need(p.env, 'DEV_APPROVER_PASSWORD'), devKey('approver')],
    [DEV_APPROVER2_EMAIL, need(p.env, 'DEV_APPROVER2_PASSWORD'), devKey('approver2')],
  ] as const) {
    const session = await signIn({ baseUrl: p.baseUrl, email, password })
    approvers.push({ poster: createJsonPoster({ session, maxSockets: p.maxSockets }), key })
  }
  const approve = async (orderId: string) => {
    const intent = await readOrderIntent(db, { orderId })
    if (!intent) throw new Error(`approve: no order ${orderId}`)
    const typedData = buildMintIntentTypedData(domain, intent)
    for (const a of approvers) {
      const signature = await a.key.signTypedData(typedData)
      const res = await a.poster.post(buildApiPost(APPROVE, { params: { path: { orderId } }, body: { signature } }))
      if (res.status !== 200) throw new Error(`approve ${orderId}: ${res.status} ${res.body.slice(0, 300)}`)
      // the order as GET /api/gold/mint/{id} shows it
      const { status } = JSON.parse(res.body) as ApiPostAnswer<typeof APPROVE>
      if (status !== 'awaiting_approval') return
    }
    throw new Error(`approve ${orderId}: still awaiting approval after every dev approver signed`)
  }
  const approveAll = async (orderIds: readonly string[], concurrency: number) => {
    let next = 0
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < orderIds.length) await approve(orderIds[next++] as string)
      }),
    )
  }
  const close = () => {
    for (const a of approvers) a.poster.close()
  }
  return { approve, approveAll, close }
}

function need(env: Record<string, string>, key: string): string {
  const value = env[key]
  if (!value) throw new Error(`the stack has no ${key}`)
  return value
}
