import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq, inArray } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainTxs, jobEvents, jobRecords, mintOrders, signerNonces } from '@/db/schema'
import { TASK } from '@/lib/jobs/jobKeys'
import { type ChainFixture, startChainFixture } from '@/tests/fixtures/chain'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createTestOrders, type TestOrder } from '@/tests/helpers/orders'
import { verifyMints } from '@/tests/helpers/verifyMints'
import { waitFor } from '@/tests/helpers/waitFor'
import { startWorkerProcess, type WorkerProcess, workerEnv } from '@/tests/helpers/workerProcess'

/**
 * A KMS endpoint in front of the real local one that refuses the n-th Sign request with a
 * non-retryable KMS error (the key unavailable for a moment), and passes everything else
 * through untouched: the worker's real KMS client, the real DER and EIP-2 code.
 */
async function startFailingKms(
  upstream: string,
  failSignNumber: number,
): Promise<{ url: string; signs: () => number; stop: () => Promise<void> }> {
  let signs = 0
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (req.headers['x-amz-target'] === 'TrentService.Sign' && ++signs === failSignNumber) {
        const text = JSON.stringify({
          __type: 'KMSInvalidStateException',
          message: 'injected by the test: the key is unavailable',
        })
        res.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.1', 'Content-Length': Buffer.byteLength(text) })
        res.end(text)
        return
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([k, v]) => typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k),
        ),
      ) as Record<string, string>
      fetch(upstream, { method: req.method, headers, body })
        .then(async (answer) => {
          const text = Buffer.from(await answer.arrayBuffer())
          res.writeHead(answer.status, {
            'Content-Type': answer.headers.get('content-type') ?? 'application/x-amz-json-1.1',
            'Content-Length': text.length,
          })
          res.end(text)
        })
        .catch(() => {
          res.writeHead(502)
          res.end()
        })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    signs: () => signs,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

describe('batched sending (decision 029)', () => {
  let t: TestDatabase
  let chain: ChainFixture
  const workers: WorkerProcess[] = []
  const minted: TestOrder[] = []
  const to = [privateKeyToAddress(generatePrivateKey()), privateKeyToAddress(generatePrivateKey())]

  beforeAll(async () => {
    ;[t, chain] = await Promise.all([createTestDatabase(), startChainFixture()])
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')))
    await chain?.stop()
    await t?.drop()
  })

  const confirmedAll = (orders: TestOrder[], logs: string) =>
    waitFor(
      async () =>
        (
          await t.db
            .select({ status: mintOrders.status })
            .from(mintOrders)
            .where(
              inArray(
                mintOrders.id,
                orders.map((o) => o.id),
              ),
            )
        ).every((o) => o.status === 'confirmed'),
      { timeoutMs: 60_000, intervalMs: 300, what: `every order confirmed (logs: ${logs})` },
    )
  const noncesOf = async (orders: TestOrder[]) =>
    (
      await t.db
        .select({ id: mintOrders.id, nonce: mintOrders.nonce })
        .from(mintOrders)
        .where(
          inArray(
            mintOrders.id,
            orders.map((o) => o.id),
          ),
        )
    )
      .map((r) => r.nonce ?? -1n)
      .sort((a, b) => (a < b ? -1 : 1))
  const eventsOf = async (orderId: string) =>
    (await t.db.select().from(jobEvents).where(eq(jobEvents.orderId, orderId))).map((e) => e.event)

  it('one job takes the queued orders as a batch: each minted exactly once, on consecutive nonces, every step on its timeline', async () => {
    const orders = await createTestOrders(t.db, { count: 30, to })
    const worker = startWorkerProcess({
      name: 'batch',
      env: workerEnv({ databaseUrl: t.url, chain, env: { WORKER_CONCURRENCY: '1', MINT_SEND_BATCH: '50' } }),
    })
    workers.push(worker)
    await confirmedAll(orders, worker.logFile)
    minted.push(...orders)
    await verifyMints({ db: t.db, chain, orders: minted })

    const nonces = await noncesOf(orders)
    expect(nonces).toEqual(Array.from({ length: orders.length }, (_, i) => nonces[0]! + BigInt(i)))
    // the first job led a batch: the others were claimed, not each taken by graphile-worker
    expect(worker.lines.filter((l) => l.msg === 'claimed job finished').length).toBeGreaterThan(0)
    for (const order of orders) {
      const names = await eventsOf(order.id)
      for (const step of [
        'enqueued',
        'started',
        'simulated',
        'nonce_reserved',
        'signed',
        'broadcast',
        'succeeded',
        'confirmed',
      ])
        expect(names, `${order.id}: ${step}`).toContain(step)
      expect(names.filter((e) => e === 'signed')).toHaveLength(1)
      const txs = await t.db.select().from(chainTxs).where(eq(chainTxs.orderId, order.id))
      expect(txs).toHaveLength(1)
      const [send] = await t.db
        .select()
        .from(jobRecords)
        .where(and(eq(jobRecords.orderId, order.id), eq(jobRecords.task, TASK.mintSend)))
      expect(send).toMatchObject({ state: 'done', attempts: 1 })
    }
    await worker.stop('SIGTERM')
  }, 120_000)

  it('a KMS failure for one order of a batch fails only that attempt: its nonce stays bound and its retry signs that same nonce', async () => {
    const kms = await startFailingKms(chain.kmsEndpoint, 3)
    try {
      const orders = await createTestOrders(t.db, { count: 8, to })
      const env = workerEnv({
        databaseUrl: t.url,
        chain,
        env: { WORKER_CONCURRENCY: '1', MINT_SEND_BATCH: '50', KMS_ENDPOINT: kms.url },
      })
      const worker = startWorkerProcess({ name: 'kms-fault', env })
      workers.push(worker)
      await confirmedAll(orders, worker.logFile)
      minted.push(...orders)
      await verifyMints({ db: t.db, chain, orders: minted })
      expect(kms.signs()).toBeGreaterThanOrEqual(orders.length + 1)

      const failed: string[] = []
      for (const order of orders) {
        const events = await t.db
          .select()
          .from(jobEvents)
          .where(and(eq(jobEvents.orderId, order.id), eq(jobEvents.task, TASK.mintSend)))
        if (events.some((e) => e.event === 'failed')) failed.push(order.id)
        // one nonce for life: reserved once, signed once, whatever failed in between
        expect(
          events.filter((e) => e.event === 'nonce_reserved'),
          order.id,
        ).toHaveLength(1)
        expect(
          events.filter((e) => e.event === 'signed'),
          order.id,
        ).toHaveLength(1)
      }
      expect(failed, 'orders whose attempt failed').toHaveLength(1)
      const victim = failed[0]!
      const events = await t.db
        .select()
        .from(jobEvents)
        .where(and(eq(jobEvents.orderId, victim), eq(jobEvents.task, TASK.mintSend)))
      const reserved = events.find((e) => e.event === 'nonce_reserved')?.data as { nonce: string }
      const signed = events.find((e) => e.event === 'signed')?.data as { nonce: string }
      expect(signed.nonce, 'the retry signed the nonce reserved by the failed attempt').toBe(reserved.nonce)
      expect(events.find((e) => e.event === 'failed')?.detail).toMatch(/unavailable/)
      const signedAt = events.find((e) => e.event === 'signed')!
      expect(signedAt.attempt).toBe(2)
      const [row] = await t.db.select().from(signerNonces).where(eq(signerNonces.orderId, victim))
      expect(row).toMatchObject({ nonce: BigInt(reserved.nonce), state: 'mined', use: 'mint' })
      const [send] = await t.db
        .select()
        .from(jobRecords)
        .where(and(eq(jobRecords.orderId, victim), eq(jobRecords.task, TASK.mintSend)))
      expect(send).toMatchObject({ state: 'done', attempts: 2 })
      const others = await t.db
        .select()
        .from(jobRecords)
        .where(
          and(
            inArray(
              jobRecords.orderId,
              orders.filter((o) => o.id !== victim).map((o) => o.id),
            ),
            eq(jobRecords.task, TASK.mintSend),
          ),
        )
      expect(others.map((r) => r.attempts)).toEqual(others.map(() => 1))
      const nonces = await noncesOf(orders)
      expect(nonces).toEqual(Array.from({ length: orders.length }, (_, i) => nonces[0]! + BigInt(i)))
      await worker.stop('SIGTERM')
    } finally {
      await kms.stop()
    }
  }, 120_000)
})
