import type { Hex, TransactionReceipt } from 'viem'
import type { DbOrTx, Tx } from '@/db/client'
import type { OperationKindName } from '@/db/schema'
import type { SendOrder } from '../mint/sendOutcome'
import type { WorkerContext } from '../runtime/context'

/** What the send path reads of every kind's row: its id and its status (docs/decisions/049). */
export type OperationRow = { id: string; status: string }

/** The columns of a chain_txs or signer_nonces row that reference one operation: its kind's set, the other null. */
export type OperationReference = {
  orderId: string | null
  controlChangeId: string | null
  redemptionId: string | null
  complianceOperationId: string | null
}

/** No operation referenced: each kind's reference sets its own column over this. */
export const NO_OPERATION: OperationReference = {
  orderId: null,
  controlChangeId: null,
  redemptionId: null,
  complianceOperationId: null,
}

/**
 * The reserve transaction's view of a kind: opened before the transaction begins (so the
 * kind's chain reads go out beside its BEGIN), used under the rows' locks.
 */
export type SigningSession<Row extends OperationRow> = {
  /**
   * the rows by id, locked FOR UPDATE in id order, and what the kind's checks need
   * locked with them (a mint: its vaults, shared), all issued at once
   */
  lock: (tx: Tx, p: { ids: readonly string[]; prepared: ReadonlyMap<string, Row> }) => Promise<Map<string, Row>>
  /**
   * under those locks, per open row in the order given, the calldata to sign: rebuilt from
   * the locked row and its signed intent, every signature verified again, and the kind's
   * checks before signing passed; a refusal (ReserveCheckRefusedError) is that row's alone;
   * `prepared`: the rows as read before the lock
   */
  check: (
    tx: Tx,
    p: { rows: readonly Row[]; prepared: ReadonlyMap<string, Row> },
  ) => Promise<PromiseSettledResult<Hex>[]>
}

/** What checking stored bytes may read: the database, and which chain and minter they are for. */
export type StoredCallContext = Pick<WorkerContext, 'db' | 'chainId' | 'minterAddress'>

/**
 * Refuses (through `refuse`, which throws StoredTxMismatchError) stored calldata that is not exactly the
 * operation's call, re-derived from its row and its signed intent; `data` already goes to GoldMinter.
 */
export type StoredCallCheck = (
  ctx: StoredCallContext,
  p: { id: string; data: Hex; refuse: (detail: string) => never },
) => Promise<void>

/**
 * What one kind of issuer operation gives the one send pipeline
 * (docs/decisions/049-one-pipeline-for-every-operation.md); nonces, fees, signing, storing,
 * broadcast and confirming stay the pipeline's. Every call goes to GoldMinter.
 */
export type OperationKind<Row extends OperationRow> = {
  kind: OperationKindName
  /** how errors name one operation of the kind */
  noun: string
  /** the task that sends the kind's operations: the task of their send events (TASK in lib/jobs/jobKeys.ts) */
  sendTask: string
  /** the reference columns of the chain_txs and signer_nonces rows that carry the operation */
  reference: (p: { id: string }) => OperationReference
  /** the rows by id, FOR UPDATE in id order when asked: every status change of a row is made under this lock */
  lock: (db: DbOrTx, p: { ids: readonly string[]; lock: boolean }) => Promise<Map<string, Row>>
  /** the status of an operation whose call is mined with its confirmations (a mint: confirmed) */
  done: string
  /** the status the pipeline is done with the row in (confirmed, cancelled), or null while it is open */
  settledOf: (p: { row: Row }) => string | null
  /** a permanent refusal the row alone shows (a recipient that is no address), or null */
  refusalOf: (p: { row: Row }) => string | null
  /**
   * outside a lock: reads what building the batch's calls needs once, and returns the
   * builder of one row's calldata (its signed intent verified; a refusal rejects)
   */
  prepareCalls: (ctx: WorkerContext, p: { rows: readonly Row[] }) => Promise<(p: { row: Row }) => Promise<Hex>>
  /** GoldMinter's error name that says the operation's call already happened */
  alreadyDone: string
  /** the call already happened with no transaction of ours stored: the chain wins */
  reconcile: (ctx: WorkerContext, p: { order: SendOrder; actor: string }) => Promise<void>
  openSigning: (ctx: WorkerContext) => SigningSession<Row>
  /** checked before stored bytes of the kind are sent again or replaced (verifyStoredTx) */
  checkStoredCall: StoredCallCheck
  /**
   * open rows locked by the caller whose transaction is known to the node: submitted; `hashes`: each row's
   * transaction, for the kind's own events (a mint: mint.submitted the first time)
   */
  markSubmitted: (tx: Tx, p: { rows: readonly Row[]; hashes: ReadonlyMap<string, string> }) => Promise<void>
  /** a replacement of the operation's transaction is stored, under the row's lock (a mint: mint.replaced) */
  replaced: (tx: Tx, p: { id: string; hash: string; replaced: string }) => Promise<void>

  // the confirm side: every member that writes runs in the caller's transaction, under the rows' locks

  /** a successful receipt carries the operation's event (a mint: the token's Minted of the order) */
  eventIn: (
    ctx: Pick<WorkerContext, 'tokenAddress' | 'minterAddress'>,
    p: { receipt: TransactionReceipt; id: string },
  ) => boolean
  /** the operations' calls have their confirmations: done, with the kind's side effects and notifications */
  markConfirmed: (tx: Tx, p: { done: readonly ConfirmedOperation[] }) => Promise<void>
  /**
   * the chain shows the operation's call mined while its row is not submitted (failed, cancelled,
   * after an admin's retry): submitted again, holding what it held in flight; returns whether it changed
   */
  reopen: (tx: Tx, p: { id: string }) => Promise<boolean>
  /** its mined call was reorged away: submitted, holding what it held in flight, until it is mined again */
  reorged: (tx: Tx, p: { id: string }) => Promise<void>
  /**
   * the signer's confirmer cannot settle it with the others (its call reverted or lacks its event, its nonce was
   * used by none of ours, its stored bytes were refused): the kind's own way on, under the row's lock (a mint: an
   * order_confirm job of its own)
   */
  handOver: (tx: Tx, ctx: WorkerContext, p: { id: string; actor: string; detail: string }) => Promise<void>
}

/** An operation whose mined call has its confirmations. */
export type ConfirmedOperation = { id: string; txHash: string; blockNumber: bigint }
