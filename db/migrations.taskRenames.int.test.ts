import { randomUUID } from 'node:crypto'
import { drizzle } from 'drizzle-orm/postgres-js'
import { migrate as drizzleMigrate } from 'drizzle-orm/postgres-js/migrator'
import { Logger, runMigrations } from 'graphile-worker'
import type postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TASK, TASKS_RENAMED } from '@/lib/jobs/jobKeys'
import { createMigrationDatabase, type MigrationDatabase } from '@/tests/helpers/migrationDatabase'
import { migrationsFolder } from './migrate'

// Migration 0020_order_confirm_signer_confirm on a database with jobs queued under the old
// task names: nothing may be stranded, and the history the admin pages filter on follows.

let m: MigrationDatabase
let sql: postgres.Sql

beforeAll(async () => {
  m = await createMigrationDatabase()
  sql = m.sql
  await runMigrations({ connectionString: m.url, logger: new Logger(() => () => {}) })
})

afterAll(async () => {
  await m?.drop()
})

describe('migration 0020_order_confirm_signer_confirm', () => {
  it('renames the tasks, the job keys, the history and the counters of mint_confirm and mint_confirmer', async () => {
    await drizzleMigrate(drizzle(sql), { migrationsFolder: m.folderUpTo(20) })
    const signer = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
    const [alone, taken] = [randomUUID(), randomUUID()]
    const add = async (task: string, key: string, payload: object) => {
      const [job] = await sql<{ id: string }[]>`
        select id::text from graphile_worker.add_job(${task}, ${JSON.stringify(payload)}::json, job_key => ${key})`
      return job!.id
    }
    const confirmer = await add('mint_confirmer', `mint_confirmer:${signer}`, { signer })
    const own = await add('mint_confirm', `mint_confirm:${alone}`, { orderId: alone })
    // a worker of the new release already registered order_confirm and holds one order's new key
    const newer = await add('order_confirm', `order_confirm:${taken}`, { orderId: taken })
    const older = await add('mint_confirm', `mint_confirm:${taken}`, { orderId: taken })
    const send = await add('mint_send', `mint_send:${alone}`, { orderId: alone })
    for (const [id, task] of [
      [confirmer, 'mint_confirmer'],
      [own, 'mint_confirm'],
      [send, 'mint_send'],
    ] as const) {
      await sql`insert into job_records (job_id, task, state, max_attempts) values (${id}, ${task}, 'queued', 5)`
      await sql`insert into job_events (job_id, task, event) values (${id}, ${task}, 'enqueued')`
    }
    await sql`insert into metric_series (process, name, labels, value) values
      ('history', 'mintdesk_dead_letters_total', '{task="mint_confirm"}', 3),
      ('history', 'mintdesk_dead_letters_total', '{task="order_confirm"}', 1),
      ('history', 'mintdesk_job_attempts_total', '{outcome="succeeded",task="mint_confirmer"}', 7),
      ('history', 'mintdesk_job_attempts_total', '{outcome="succeeded",task="mint_send"}', 9)`

    await drizzleMigrate(drizzle(sql), { migrationsFolder })

    expect(
      (
        await sql<{ identifier: string }[]>`select identifier from graphile_worker._private_tasks order by identifier`
      ).map((t) => t.identifier),
    ).toEqual(['mint_send', 'order_confirm', 'signer_confirm'])
    const jobs = await sql<{ id: string; task: string; key: string }[]>`
      select j.id::text, t.identifier as task, j.key from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id order by j.id`
    expect(jobs).toEqual([
      { id: confirmer, task: TASK.signerConfirm, key: `signer_confirm:${signer}` },
      { id: own, task: TASK.orderConfirm, key: `order_confirm:${alone}` },
      { id: newer, task: TASK.orderConfirm, key: `order_confirm:${taken}` },
      // its new key was taken: it keeps the old one, and still runs under the new task
      { id: older, task: TASK.orderConfirm, key: `mint_confirm:${taken}` },
      { id: send, task: TASK.mintSend, key: `mint_send:${alone}` },
    ])
    expect(await sql`select job_id::text, task from job_records order by job_id`).toEqual([
      { job_id: confirmer, task: 'signer_confirm' },
      { job_id: own, task: 'order_confirm' },
      { job_id: send, task: 'mint_send' },
    ])
    expect((await sql`select task from job_events order by job_id`).map((e) => e.task)).toEqual([
      'signer_confirm',
      'order_confirm',
      'mint_send',
    ])
    expect(await sql`select name, labels, value from metric_series order by name, labels`).toEqual([
      { name: 'mintdesk_dead_letters_total', labels: '{task="order_confirm"}', value: 4 },
      { name: 'mintdesk_job_attempts_total', labels: '{outcome="succeeded",task="mint_send"}', value: 9 },
      { name: 'mintdesk_job_attempts_total', labels: '{outcome="succeeded",task="signer_confirm"}', value: 7 },
    ])
  })

  it('maps each old name to the task it became, for the jobs a previous release still adds', () => {
    expect(TASKS_RENAMED).toEqual({ mint_confirm: TASK.orderConfirm, mint_confirmer: TASK.signerConfirm })
  })
})
