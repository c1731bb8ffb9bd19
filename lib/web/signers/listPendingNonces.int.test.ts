import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NotFoundError } from '@/lib/web/errors/resource'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { insertOrder } from '@/tests/helpers/orders'
import { insertSigner, reserveNonce } from '@/tests/helpers/signers'
import { insertUser } from '@/tests/helpers/users'
import { listPendingNonces } from './listPendingNonces'
import { readPendingNonceOrThrow } from './readPendingNonceOrThrow'

describe('listPendingNonces (the admin system page and the nonce actions read the same rows)', () => {
  let t: TestDatabase
  let a: string
  let b: string
  let signedHash: string | null

  beforeAll(async () => {
    t = await createTestDatabase({ max: 2 })
    a = await insertSigner(t.db, { address: '0xAbCdEf0000000000000000000000000000000001', nextNonce: 4n })
    b = await insertSigner(t.db, { nextNonce: 1n })
    const user = await insertUser(t.db)
    for (const nonce of [0n, 1n, 2n, 3n]) {
      const order = await insertOrder(t.db, { requestedBy: user.id })
      const hash = await reserveNonce(t.db, { signer: a, nonce, orderId: order.id, signed: nonce === 1n })
      if (nonce === 1n) signedHash = hash
    }
    await reserveNonce(t.db, { signer: b, nonce: 0n, orderId: (await insertOrder(t.db, { requestedBy: user.id })).id })
    await t.db.execute(sql`update signer_nonces set state = 'mined' where signer_address = ${a} and nonce = 0`)
  })
  afterAll(async () => {
    await t?.drop()
  })

  it('lists the reserved and signed nonces by signer and nonce, each with its operation and newest transaction', async () => {
    const all = await listPendingNonces(t.db)
    const of = (signer: string) => all.filter((n) => n.signerAddress === signer).map((n) => [n.nonce, n.state])
    expect(all).toHaveLength(4)
    expect(of(a)).toEqual([
      [1, 'signed'],
      [2, 'reserved'],
      [3, 'reserved'],
    ])
    expect(of(b)).toEqual([[0, 'reserved']])
    const signed = all.find((n) => n.signerAddress === a && n.nonce === 1)
    expect(signed).toMatchObject({
      use: 'mint',
      operation: 'mint',
      operationId: expect.any(String),
      newest: { hash: signedHash, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, broadcast: true },
    })
    expect(all.find((n) => n.signerAddress === a && n.nonce === 2)?.newest).toBeNull()
  })

  it("keeps each signer's lowest perSigner nonces", async () => {
    const two = await listPendingNonces(t.db, { perSigner: 2 })
    expect(two.filter((n) => n.signerAddress === a).map((n) => n.nonce)).toEqual([1, 2])
    expect(two.filter((n) => n.signerAddress === b).map((n) => n.nonce)).toEqual([0])
  })

  it('reads one pending nonce of a signer named in any case; a mined one, another nonce or signer: 404', async () => {
    expect(await readPendingNonceOrThrow(t.db, { signerAddress: a.toLowerCase(), nonce: 3 })).toMatchObject({
      signerAddress: a,
      nonce: 3,
      state: 'reserved',
    })
    for (const p of [
      { signerAddress: a, nonce: 0 },
      { signerAddress: a, nonce: 9 },
      { signerAddress: `0x${'77'.repeat(20)}`, nonce: 1 },
    ])
      await expect(readPendingNonceOrThrow(t.db, p)).rejects.toThrow(NotFoundError)
  })
})
