import { sql } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'

export type ReadCursorStartParameters = {
  /** the follower's row of chain_cursors */
  name: string
  /** TOKEN_DEPLOY_BLOCK: where a follower with no cursor yet starts (no event of the desk's contracts is older) */
  deployBlock: bigint
}

/**
 * The first block a chain follower reads next: the one after its cursor (chain_cursors `name`, the last block it
 * read), or the token's deployment block while it has none, never a block before that.
 */
export async function readCursorStart(db: DbOrTx, { name, deployBlock }: ReadCursorStartParameters): Promise<bigint> {
  const [row] = await db.execute<{ block_number: string }>(
    sql`select block_number::text as block_number from chain_cursors where name = ${name}`,
  )
  const next = row ? BigInt(row.block_number) + 1n : deployBlock
  return next > deployBlock ? next : deployBlock
}
