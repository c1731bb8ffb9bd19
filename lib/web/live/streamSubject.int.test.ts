import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, type DbClient } from '@/db/client'
import { createTestDatabase, type TestDatabase } from '@/tests/helpers/db'
import { createSubjectListener, type SubjectListener } from './createSubjectListener'
import { streamSubject } from './streamSubject'

// The live pages' stream on the real Postgres: the trigger on job_events notifies at the commit, the web's one
// LISTEN (as the web's own database role) fans it out, each stream sends a snapshot read again after it.

describe('a live stream of one operation', () => {
  let t: TestDatabase
  let web: DbClient
  let listener: SubjectListener

  beforeAll(async () => {
    t = await createTestDatabase()
    web = createDb({ url: t.roleUrl('web'), max: 2, name: 'mintdesk-web-live-test' })
    listener = createSubjectListener(web.sql)
  })
  afterAll(async () => {
    await web?.close()
    await t?.drop()
  })

  /** a job_events row of `id` committed by the owner's connection, as a worker or the web writes one */
  const step = (id: string, event: string) =>
    t.db.execute(sql`insert into job_events (order_id, task, event) values (${id}::uuid, 'mint_send', ${event})`)
  const stepsOf = async (id: string) =>
    (
      await t.db.execute<{ event: string }>(sql`select event from job_events where order_id = ${id}::uuid order by id`)
    ).map((r) => r.event)

  /** opens a stream of `id` whose snapshot is the operation's events so far; reads its messages as they come */
  const open = (id: string) => {
    const abort = new AbortController()
    const res = streamSubject({ listener, id, event: 'steps', read: () => stepsOf(id), signal: abort.signal })
    const reader = res.body?.getReader()
    if (!reader) throw new Error('no body')
    const decoder = new TextDecoder()
    let buffer = ''
    const snapshots: string[][] = []
    const pump = (async () => {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        buffer += decoder.decode(value, { stream: true })
        let end = buffer.indexOf('\n\n')
        while (end >= 0) {
          const message = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const data = message.split('\n').find((l) => l.startsWith('data: '))
          if (message.startsWith('event: steps') && data) snapshots.push(JSON.parse(data.slice(6)) as string[])
          end = buffer.indexOf('\n\n')
        }
      }
    })()
    return { res, snapshots, abort, pump }
  }
  const until = async (check: () => boolean, what: string) => {
    const giveUp = Date.now() + 10_000
    while (!check()) {
      if (Date.now() > giveUp) throw new Error(`timed out waiting for ${what}`)
      await new Promise((r) => setTimeout(r, 10))
    }
  }

  it('sends a snapshot at once, then one after each committed step of its operation, none for another', async () => {
    const id = randomUUID()
    const other = randomUUID()
    const s = open(id)
    expect(s.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    await until(() => s.snapshots.length === 1, 'the first snapshot')
    expect(s.snapshots[0]).toEqual([])
    await step(id, 'enqueued')
    await until(() => s.snapshots.length === 2, 'the snapshot after enqueued')
    expect(s.snapshots[1]).toEqual(['enqueued'])
    await step(other, 'enqueued')
    await step(id, 'started')
    await until(() => s.snapshots.at(-1)?.at(-1) === 'started', 'the snapshot after started')
    // the other operation's step sent nothing: every snapshot is one of this operation's steps
    expect(s.snapshots).toEqual([[], ['enqueued'], ['enqueued', 'started']])
    s.abort.abort()
    await s.pump
    expect(listener.size()).toBe(0)
  })

  it('nothing before the commit; a burst folds into fewer reads, the last snapshot has every step', async () => {
    const id = randomUUID()
    const s = open(id)
    await until(() => s.snapshots.length === 1, 'the first snapshot')
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`insert into job_events (order_id, task, event) values (${id}::uuid, 'mint_send', 'signed')`)
      await new Promise((r) => setTimeout(r, 300))
      // not committed yet: no notification, no snapshot
      expect(s.snapshots).toHaveLength(1)
    })
    await until(() => s.snapshots.length === 2, 'the snapshot after the commit')
    const burst = Array.from({ length: 20 }, (_, i) => `step-${i}`)
    for (const e of burst) await step(id, e)
    await until(() => s.snapshots.at(-1)?.length === 21, 'the snapshot with the whole burst')
    expect(s.snapshots.length).toBeLessThanOrEqual(2 + burst.length)
    expect(s.snapshots.at(-1)).toEqual(['signed', ...burst])
    s.abort.abort()
    await s.pump
  })

  it('after its LISTEN connection is killed, it listens again and sends a fresh snapshot (resync)', async () => {
    const id = randomUUID()
    const s = open(id)
    await until(() => s.snapshots.length === 1, 'the first snapshot')
    // the web's LISTEN connection, ended as a failover or an idle timeout would end it
    await t.db.execute(sql`
      select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'mintdesk-web-live-test' and query ilike 'listen%'`)
    await until(() => s.snapshots.length >= 2, 'the resync snapshot')
    await step(id, 'confirmed')
    await until(() => s.snapshots.at(-1)?.at(-1) === 'confirmed', 'the snapshot after the reconnect')
    s.abort.abort()
    await s.pump
  })

  it('ends when its read fails (the operation no longer visible to the viewer)', async () => {
    const id = randomUUID()
    let reads = 0
    const res = streamSubject({
      listener,
      id,
      event: 'steps',
      read: async () => {
        reads++
        if (reads > 1) throw new Error('not found')
        return []
      },
      signal: new AbortController().signal,
    })
    const text = new Response(res.body).text()
    await new Promise((r) => setTimeout(r, 100))
    await step(id, 'cancelled')
    expect(await text).toContain('event: steps')
    expect(reads).toBe(2)
  })
})
