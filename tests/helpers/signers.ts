import { randomBytes, randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { DbOrTx } from '@/db/client'
import { chainTxs, signerNonces, signers } from '@/db/schema/chain'
import { mintOrders } from '@/db/schema/mint'

// TEST ONLY: signers, nonces and signed transactions, the rows mint_send writes.

export async function insertSigner(db: DbOrTx, p: { address?: string; nextNonce?: bigint } = {}): Promise<string> {
  const address = p.address ?? `0x${randomBytes(20).toString('hex')}`
  await db.insert(signers).values({ address, kmsKeyId: randomUUID(), chainId: 31337, nextNonce: p.nextNonce ?? 0n })
  return address
}

/** Binds a nonce to an order, and optionally a signed (stored) transaction, as mint_send does. */
export async function reserveNonce(
  db: DbOrTx,
  p: { signer: string; nonce: bigint; orderId: string; signed?: boolean; minedBlock?: bigint },
): Promise<string | null> {
  await db.insert(signerNonces).values({
    signerAddress: p.signer,
    nonce: p.nonce,
    use: 'mint',
    orderId: p.orderId,
    state: p.minedBlock !== undefined ? 'mined' : p.signed ? 'signed' : 'reserved',
  })
  await db.update(mintOrders).set({ signerAddress: p.signer, nonce: p.nonce }).where(eq(mintOrders.id, p.orderId))
  if (!p.signed && p.minedBlock === undefined) return null
  const hash = `0x${randomBytes(32).toString('hex')}`
  await db.insert(chainTxs).values({
    hash,
    signerAddress: p.signer,
    nonce: p.nonce,
    orderId: p.orderId,
    kind: 'mint',
    rawTx: '0x02',
    maxFeePerGas: '2000000000',
    maxPriorityFeePerGas: '1000000000',
    gasLimit: '120000',
    broadcastAt: new Date(),
    minedBlock: p.minedBlock ?? null,
  })
  return hash
}
