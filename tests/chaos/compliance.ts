import type { Address, Hex } from 'viem'
import { devKey } from '@/lib/keys/devKeys'
import type { ApiTypedData } from '@/lib/web/signing/apiTypes'
import type { Api } from './api'

// The chaos runs' compliance operations (docs/decisions/056-compliance-operations.md): an admin freezes an address
// and unfreezes it through the HTTP API, the approver signs each, while workers are killed.

/** `applied`: the operations the admin page showed applied in time */
export type FreezeAndUnfreezeReport = { operationIds: string[]; applied: number; problems: string[] }

/**
 * Freezes `address`, waits until the chain says it is frozen, then unfreezes it, each operation asked for by the
 * admin and signed by the dev approver; every request retried on a 5xx or a lost answer.
 */
export async function freezeAndUnfreeze(
  api: Api,
  p: { address: Address; giveUpAfterMs: number; log: (line: string) => void },
): Promise<FreezeAndUnfreezeReport> {
  const problems: string[] = []
  const operationIds: string[] = []
  let applied = 0
  const giveUpAt = Date.now() + p.giveUpAfterMs
  for (const action of ['freeze', 'unfreeze'] as const) {
    const id = await ask(api, { action, address: p.address, giveUpAt })
    if (id instanceof Error) {
      problems.push(`${action} ${p.address}: ${id.message}`)
      return { operationIds, applied, problems }
    }
    const signed = await approve(api, { id, giveUpAt })
    if (signed instanceof Error) {
      problems.push(`${action} ${id}: ${signed.message}`)
      return { operationIds, applied, problems }
    }
    operationIds.push(id)
    const done = await until(giveUpAt, async () => {
      const res = await api({ method: 'GET', path: '/api/admin/compliance', as: 'admin' })
      if (res.status !== 200) return false
      const body = (await res.json()) as { operations: { operationId: string; status: string }[] }
      return body.operations.some((o) => o.operationId === id && o.status === 'applied')
    })
    if (!done) problems.push(`${action} ${id} was not applied in time`)
    else {
      applied++
      p.log(`compliance: ${action} of ${p.address} applied`)
    }
  }
  return { operationIds, applied, problems }
}

async function ask(
  api: Api,
  p: { action: 'freeze' | 'unfreeze'; address: Address; giveUpAt: number },
): Promise<string | Error> {
  for (let attempt = 0; ; attempt++) {
    const res = await api({
      method: 'POST',
      path: `/api/admin/compliance/${p.action}`,
      as: 'admin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: p.address, reason: `chaos ${p.action}` }),
    }).catch(() => undefined)
    const text = res ? await res.text() : ''
    if (res?.status === 202) return (JSON.parse(text) as { operationId: string }).operationId
    if (res && res.status >= 400 && res.status < 500) return new Error(`${res.status} ${text.slice(0, 300)}`)
    if (Date.now() > p.giveUpAt) return new Error(`gave up, last ${res?.status ?? 'no answer'}`)
    await new Promise((r) => setTimeout(r, Math.min(2_000, 200 * (attempt + 1))))
  }
}

async function approve(api: Api, p: { id: string; giveUpAt: number }): Promise<true | Error> {
  const path = `/api/admin/compliance/operations/${p.id}`
  for (let attempt = 0; ; attempt++) {
    try {
      const got = await api({ method: 'GET', path: `${path}/approval`, as: 'approver' })
      if (got.status === 200) {
        const { typedData } = (await got.json()) as { typedData: ApiTypedData }
        const res = await api({
          method: 'POST',
          path: `${path}/approve`,
          as: 'approver',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ signature: await signTypedDataAsApi(typedData) }),
        })
        const text = await res.text()
        if (res.status === 200) return true
        if (res.status === 409 && attempt > 0 && /already_signed|not_awaiting_approval/.test(text)) return true
        if (res.status >= 400 && res.status < 500) return new Error(`approve: ${res.status} ${text.slice(0, 300)}`)
      } else if (got.status >= 400 && got.status < 500) return new Error(`approval: ${got.status}`)
    } catch {
      // a lost answer: asked again
    }
    if (Date.now() > p.giveUpAt) return new Error('the approval gave up')
    await new Promise((r) => setTimeout(r, Math.min(2_000, 200 * (attempt + 1))))
  }
}

/** The dev approver's signature of typed data as an approval route gives it: its uint fields as decimal strings. */
function signTypedDataAsApi(typedData: ApiTypedData): Promise<Hex> {
  const fields = typedData.types[typedData.primaryType] ?? []
  const message = Object.fromEntries(
    Object.entries(typedData.message).map(([k, v]) => {
      const type = fields.find((f) => f.name === k)?.type ?? ''
      return [k, /^u?int/.test(type) && typeof v === 'string' ? BigInt(v) : v]
    }),
  )
  const { EIP712Domain: _domain, ...types } = typedData.types
  return devKey('approver').signTypedData({
    domain: { ...typedData.domain, chainId: Number(typedData.domain.chainId) } as Record<string, unknown>,
    types,
    primaryType: typedData.primaryType,
    message,
  })
}

async function until(giveUpAt: number, check: () => Promise<boolean>): Promise<boolean> {
  for (;;) {
    if (await check().catch(() => false)) return true
    if (Date.now() > giveUpAt) return false
    await new Promise((r) => setTimeout(r, 500))
  }
}
