// The signers, for key rotation (docs/deploy.md): `node signers.mjs` in the worker
// image (bundled by scripts/build-release.ts), `tsx cli/signers.ts` from a checkout.
//
//   node signers.mjs                        list: address, KMS key, active, next nonce, in flight
//   node signers.mjs --deactivate KEY_ID    the signer takes no new orders; it still drains
//   node signers.mjs --activate KEY_ID      undo
//
// "In flight" counts the signer's nonces not yet mined (signer_nonces: reserved, signed,
// or released by a cancelled order and waiting for its gap fill); a deactivated signer
// may leave KMS_KEY_IDS only at 0. Needs
// DATABASE_URL (the password may come from PGPASSWORD). One JSON line per signer.

import { parseArgs } from 'node:util'
import { eq, sql } from 'drizzle-orm'
import { createDb } from '@/db/client'
import { signers } from '@/db/schema/chain'
import { loadConfig } from '@/lib/config/loadConfig'
import { createCliLog, runCli } from './cli'

const log = createCliLog('mintdesk-signers')

async function main(): Promise<number> {
  let values: { activate?: string; deactivate?: string }
  try {
    ;({ values } = parseArgs({
      options: { activate: { type: 'string' }, deactivate: { type: 'string' } },
      strict: true,
    }))
  } catch (err) {
    log('error', `usage: ${err instanceof Error ? err.message : String(err)}`)
    return 2
  }
  if (values.activate && values.deactivate) {
    log('error', 'usage: signers [--activate KEY_ID | --deactivate KEY_ID]')
    return 2
  }
  const config = loadConfig({ role: 'tool' })
  const { db, close } = createDb({ url: config.databaseUrl, max: 1, name: 'mintdesk-signers' })
  try {
    const keyId = values.activate ?? values.deactivate
    if (keyId) {
      const active = values.activate !== undefined
      const changed = await db
        .update(signers)
        .set({ active, updatedAt: new Date() })
        .where(eq(signers.kmsKeyId, keyId))
        .returning({ address: signers.address })
      if (changed.length === 0) {
        log('error', 'no signer has this KMS key id', { keyId })
        return 3
      }
      log('info', active ? 'signer activated' : 'signer deactivated: no new orders, it drains what it holds', {
        keyId,
        address: changed[0]?.address,
      })
    }
    const rows = await db.execute<{
      address: string
      kms_key_id: string
      chain_id: number
      active: boolean
      next_nonce: string
      in_flight: number
    }>(sql`
      select s.address, s.kms_key_id, s.chain_id, s.active, s.next_nonce::text as next_nonce,
        (select count(*)::int from signer_nonces n where n.signer_address = s.address and n.state in ('reserved', 'signed', 'released')) as in_flight
      from signers s
      order by s.created_at, s.address`)
    for (const r of rows) {
      log('info', 'signer', {
        address: r.address,
        keyId: r.kms_key_id,
        chainId: r.chain_id,
        active: r.active,
        nextNonce: r.next_nonce,
        inFlight: r.in_flight,
        drained: r.in_flight === 0,
      })
    }
    return 0
  } finally {
    await close()
  }
}

await runCli({ name: 'signers', log, main })
