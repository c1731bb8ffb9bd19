import { BaseError } from './BaseError'

/** Errors of the mint request flow (POST /api/gold/mint). */

/** A bar that already backs an order; `index` is its position in the request's `vaultProof.bars`, when known. */
export type UsedBar = { serial: string; refiner: string; index?: number }

export class BarAlreadyUsedError extends BaseError {
  override name = 'BarAlreadyUsedError'
  readonly bars: UsedBar[]
  constructor({ bars, cause }: { bars: UsedBar[]; cause?: unknown }) {
    const list = bars.map((b) => `${b.serial} (${b.refiner})`).join(', ')
    super(
      'bar_already_used',
      bars.length === 1 ? `Bar ${list} already backs another order.` : `Bars ${list} already back other orders.`,
      {
        cause,
        issues: bars.map((b) => ({
          path: b.index === undefined ? 'vaultProof.bars' : `vaultProof.bars.${b.index}`,
          message: `bar ${b.serial} (${b.refiner}) is already used`,
        })),
      },
    )
    this.bars = bars
  }
}

export class IdempotencyConflictError extends BaseError {
  override name = 'IdempotencyConflictError'
  constructor() {
    super('idempotency_conflict', 'This Idempotency-Key was already used with a different request body.')
  }
}

/**
 * Not a uuid (order ids are), or a bytes32 that is not a uuid left-padded to 32 bytes
 * (lib/mint/orderIdToBytes32.ts). A bug: 500.
 */
export class InvalidOrderIdError extends BaseError<'invalid_order_id'> {
  override name = 'InvalidOrderIdError'
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_order_id', message, options)
  }
}
