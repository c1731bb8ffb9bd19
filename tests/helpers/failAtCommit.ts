import { randomBytes } from 'node:crypto'
import type postgres from 'postgres'

export type FailAtCommitParameters = {
  /** the table of schema public whose insert arms the failure */
  table: string
  /** which inserted rows arm it: a condition on NEW, in SQL (`NEW.idempotency_key = 'boom'`) */
  when: string
  /** the message of the error raised at commit */
  message: string
  /**
   * SQL evaluated inside the failing trigger, as text, and raised as the error's detail:
   * what the transaction sees at its very end (`(select count(*) from graphile_worker.jobs)::text`)
   */
  probe?: string
}

export type FailAtCommitReturnType = {
  /** drops the trigger and its function */
  remove: () => Promise<void>
}

/**
 * TEST ONLY, installed in a test's own database, never by a migration: a deferred constraint
 * trigger that raises at the commit of any transaction that inserted a matching row into
 * `table`, after every statement of it ran (the production path unchanged, an autocommit
 * statement included). Proves that what the transaction wrote is rolled back whole
 * (invariant 1, the outbox).
 *
 * @example
 * const armed = await failAtCommit(t.sql, { table: 'mint_orders', when: "NEW.idempotency_key = 'boom'", message:
 * 'injected failure' }) await expect(createMintOrder(db, { ...p, idempotencyKey:
 * 'boom' })).rejects.toMatchObject({ message: 'injected failure' }) await armed.remove()
 */
export async function failAtCommit(sql: postgres.Sql, p: FailAtCommitParameters): Promise<FailAtCommitReturnType> {
  const name = `test_fail_at_commit_${randomBytes(4).toString('hex')}`
  const literal = p.message.replaceAll("'", "''")
  await sql.unsafe(`
    create function public.${name}() returns trigger language plpgsql as $fn$
    begin
      raise exception using message = '${literal}', detail = coalesce(${p.probe ?? 'null'}, '');
    end
    $fn$`)
  await sql.unsafe(`
    create constraint trigger ${name} after insert on public.${p.table}
      deferrable initially deferred for each row when (${p.when}) execute function public.${name}()`)
  return {
    remove: async () => {
      await sql.unsafe(`drop trigger ${name} on public.${p.table}`)
      await sql.unsafe(`drop function public.${name}()`)
    },
  }
}
