import type { RuntimeRole } from './roleNames'

/**
 * Who may do what on mintdesk's own tables (schema public), per runtime role: the table
 * of docs/security.md, applied by applyDatabaseRoles after every migration.
 *
 * A runtime role holds nothing on a table by default: each table listed here gets exactly
 * its line, everything else is revoked, and a table without a line is out of both roles'
 * reach (db/roles/databaseRoles.int.test.ts fails while a table of schema public has no
 * line). TRUNCATE, REFERENCES and TRIGGER are never granted to a runtime role; only
 * migrations change the schema.
 *
 * Why each line is what it is (grep of every insert/update in app/, lib/ and worker/):
 * - the web never signs: chain_txs, signer_nonces, signers and workers are the worker's;
 *   the web reads them for the admin pages. Cancelling an order does not release its
 *   nonce in the web's transaction: the worker's nonce health check does;
 * - audit_log and job_events are append-only for both: insert and read, no update,
 *   delete or truncate (invariant 6: the audit can't be rewritten);
 * - intake, approvals, bar-list imports, cancel and retry are the web's writes
 *   (mint_orders, mint_order_bars, vault_bars, bar_lists, job_records, users for sign-in
 *   bookkeeping and the admin's user page); the worker updates orders and bars as their
 *   mint progresses but never creates either, and reads users only;
 * - the recipient allowlist and the limits are the admins' (the web's) to change; the
 *   worker, which checks them again before signing, may not widen them; the control
 *   changes that change them (a second admin confirms) are the web's to create and decide; the
 *   worker reads them and updates the pipeline state of those that live on chain (it sends
 *   them, with the admins' signatures it verifies again, and the contract verifies once more);
 * - sign-in is the web's alone: the signed-out sessions and the login throttle's failures
 *   are written, read and pruned by it; the worker holds nothing on either (an empty line);
 * - deposits are the worker's to record (it watches the chain, chain_cursors its progress); redemptions and
 *   compliance operations are the web's to create, sign and decide, as mints are, and the worker updates their
 *   pipeline state (it verifies their signatures again, and GoldMinter once more);
 * - a line whose table does not exist (yet) is skipped.
 */
export type TablePrivilege = 'select' | 'insert' | 'update' | 'delete'

export type TableGrant = { web: readonly TablePrivilege[]; worker: readonly TablePrivilege[] }

const READ: readonly TablePrivilege[] = ['select']
const APPEND: readonly TablePrivilege[] = ['select', 'insert']
const WRITE: readonly TablePrivilege[] = ['select', 'insert', 'update']
const READ_WRITE: readonly TablePrivilege[] = ['select', 'insert', 'update', 'delete']
const NONE: readonly TablePrivilege[] = []

export const TABLE_GRANTS: Readonly<Record<string, TableGrant>> = {
  // signing and nonces: the worker's alone
  chain_txs: { web: READ, worker: WRITE },
  signer_nonces: { web: READ, worker: WRITE },
  signers: { web: READ, worker: WRITE },
  workers: { web: READ, worker: WRITE },
  // append-only records
  audit_log: { web: APPEND, worker: APPEND },
  job_events: { web: APPEND, worker: APPEND },
  // orders, bars and the people who ask for them: the web creates, the worker moves them on
  mint_orders: { web: WRITE, worker: ['select', 'update'] },
  mint_order_bars: { web: APPEND, worker: READ },
  vault_bars: { web: WRITE, worker: ['select', 'update'] },
  bar_lists: { web: WRITE, worker: READ },
  // each list's bars, appended by the import (the web) and read by the attestation pack; never changed
  bar_list_members: { web: APPEND, worker: NONE },
  // keys and approvals: the web writes what it verified, the worker only reads (and verifies again)
  user_signing_keys: { web: APPEND, worker: READ },
  mint_order_signatures: { web: APPEND, worker: READ },
  users: { web: WRITE, worker: READ },
  // sign-in (docs/decisions/038): a signed-out session is recorded, never edited; both are pruned by the web
  revoked_sessions: { web: ['select', 'insert', 'delete'], worker: NONE },
  login_failures: { web: ['select', 'insert', 'delete'], worker: NONE },
  // job history, written by whoever adds, runs, retries or cancels a job
  job_records: { web: WRITE, worker: WRITE },
  // the worker's reconciliations of supply against the bars: appended by it, read by the web
  reserve_checks: { web: READ, worker: APPEND },
  // the running total of the backing bars: written only by the triggers on vault_bars and the worker's fold
  // (fold_backing_deltas), both run as the owner; the runtime roles read it
  vault_backing_deltas: { web: READ, worker: READ },
  // the four-eyes controls the admins set in the web; the worker checks them again before signing
  allowed_recipients: { web: READ_WRITE, worker: READ },
  mint_limits: { web: READ_WRITE, worker: READ },
  // the control changes awaiting a second admin (decision 044): proposed, confirmed and rejected in the web; a
  // change is decided, never deleted
  control_changes: { web: WRITE, worker: ['select', 'update'] },
  control_change_signatures: { web: APPEND, worker: READ },
  // the stop switch: an admin stops (the web), the reserve check may trip it (the worker); neither inserts a row
  signing_switch: { web: ['select', 'update'], worker: ['select', 'update'] },
  // the SQS transport (decision 021): the order's transaction appends the outbox row; the worker's relay stamps it
  // sent; an admin's retry or cancel (the web) bumps its generation, and a retry hands it to the relay again
  sqs_outbox: { web: WRITE, worker: ['select', 'update'] },
  // the DLQ as the worker lists it; the web only stamps an admin's retry request, the worker moves the message
  sqs_dead_letters: { web: ['select', 'update'], worker: READ_WRITE },
  // the settings both processes must share (MINTER_ADDRESS): each upserts its own row at start, never deletes
  runtime_settings: { web: WRITE, worker: WRITE },
  // the counters and histograms each process measures itself: each upserts its own rows, the web sums them
  metric_series: { web: WRITE, worker: WRITE },
  // notifications: the web writes the subscriptions, the awaiting_approval event (the intake) and the rejected and
  // cancelled orders' mint.failed events (decision 053), reads the deliveries
  // and re-queues one (redeliver); the worker writes the other events, the deliveries and their attempts, and stamps
  // dispatched_at (the dispatch)
  notification_events: { web: APPEND, worker: WRITE },
  webhook_endpoints: { web: WRITE, worker: READ },
  webhook_deliveries: { web: ['select', 'update'], worker: WRITE },
  webhook_delivery_attempts: { web: READ, worker: APPEND },
  email_deliveries: { web: READ, worker: WRITE },
  deposits: { web: READ, worker: APPEND },
  chain_cursors: { web: READ, worker: WRITE },
  // chain events no row of the desk accounts for: found and appended by the worker's nonce_resync, marked resolved
  // by an admin in the web (decision 063)
  unreconciled_events: { web: ['select', 'update'], worker: APPEND },
  redemptions: { web: WRITE, worker: ['select', 'update'] },
  redemption_bars: { web: APPEND, worker: READ },
  redemption_signatures: { web: APPEND, worker: READ },
  compliance_operations: { web: WRITE, worker: ['select', 'update'] },
  compliance_signatures: { web: APPEND, worker: READ },
  // the history retention's archive (decision 066): written only by archive_history, run as the owner; the web reads
  job_events_archive: { web: READ, worker: NONE },
  job_records_archive: { web: READ, worker: NONE },
  webhook_deliveries_archive: { web: READ, worker: NONE },
  webhook_delivery_attempts_archive: { web: READ, worker: NONE },
}

/**
 * EXECUTE on mintdesk's own SQL functions that are NOT left to PUBLIC (their migration
 * revokes it): who may call each. applyDatabaseRoles grants exactly this (a function
 * that does not exist yet is skipped).
 * - create_mint_order: the intake in one statement, the session's check against the
 *   user's row included. SECURITY INVOKER, so it writes
 *   only what the caller's table grants allow; only the web takes orders. Keyed by name:
 *   grant/revoke name no signature, so they fail loudly should a second overload (e.g. one
 *   without the session's check) ever exist.
 * - enqueue_job: the one enqueue (db/functions/enqueue_job.sql), called by lib/jobs/addJobs
 *   in both processes, by create_mint_order (web) and by the notification wake-up at the
 *   commit of an order event (web and worker). SECURITY INVOKER: what it writes (the queue,
 *   job_records, job_events, sqs_outbox) is what each role's table grants allow, so the
 *   worker, which may not insert into sqs_outbox, cannot put a job on SQS.
 * - check_mint_controls, recent_mints_wei: the mint controls' one home
 *   (db/functions/check_mint_controls.sql), called by create_mint_order and the approval
 *   (web) and by the worker's check before signing (worker); the web's limits page reads
 *   the rolling total.
 * - fold_backing_deltas: the worker's reserve check folds the running total of the backing
 *   bars (SECURITY DEFINER, so no runtime role writes vault_backing_deltas itself).
 * - archive_history: the worker's history_retention moves old detail into the archive tables (SECURITY DEFINER:
 *   no runtime role deletes from the append-only tables itself).
 * - record_mint_event, on_mint_awaiting_approval: the outbox of order events; the worker
 *   records confirmed/failed/dead_letter, the web's intake (through create_mint_order's
 *   hook) awaiting_approval, and a rejection or an admin's cancel their mint.failed event.
 */
export const FUNCTION_GRANTS: Readonly<Record<string, readonly RuntimeRole[]>> = {
  create_mint_order: ['web'],
  enqueue_job: ['web', 'worker'],
  check_mint_controls: ['web', 'worker'],
  recent_mints_wei: ['web', 'worker'],
  record_mint_event: ['web', 'worker'],
  on_mint_awaiting_approval: ['web'],
  fold_backing_deltas: ['worker'],
  audit_row_hash: ['web', 'worker'],
  archive_history: ['worker'],
}
