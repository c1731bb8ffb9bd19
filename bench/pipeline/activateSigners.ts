import type postgres from 'postgres'

/**
 * Only these signers take new orders (signers.active, which reserveNonces honours; the
 * rotation switch of docs/decisions/010-deploy-ecs-cdk.md): one stack serves the 1-, 2- and 4-signer runs.
 */
export async function activateSigners(
  sql: postgres.Sql,
  { addresses }: { addresses: readonly string[] },
): Promise<void> {
  const active = await sql<{ address: string }[]>`
    update signers set active = (address = any(${addresses as string[]}::text[])), updated_at = now()
    returning address`
  const on = active.filter((r) => addresses.includes(r.address)).length
  if (on !== addresses.length) throw new Error(`activateSigners: ${addresses.length} wanted, ${on} registered`)
}
