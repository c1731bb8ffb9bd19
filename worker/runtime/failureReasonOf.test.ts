import { describe, expect, it } from 'vitest'
import { ApprovalMissingError } from '@/lib/errors/approvals'
import { JOB_ERROR_CODES, PermanentJobError, WorkerError } from '@/lib/errors/jobs'
import { BarAlreadyUsedError } from '@/lib/errors/mint'
import { BarNotHeldError } from '@/lib/errors/reserves'
import {
  FeeTooLowError,
  InsufficientFundsError,
  MintRevertedError,
  MintTxRevertedError,
  NonceConsumedError,
  StoredTxMismatchError,
} from '@/worker/errors/chain'
import { KmsAddressMismatchError } from '@/worker/errors/signers'
import { failureReasonOf } from './failureReasonOf'

const signer = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'

describe('failureReasonOf: the stable code of a failed attempt', () => {
  it.each([
    [new MintTxRevertedError(`0x${'ab'.repeat(32)}`, 'FrozenAddress(0x90F7...)'), 'reverted'],
    [new MintRevertedError('execution reverted: over the rate limit', 'RateLimited'), 'mint_would_revert'],
    [new NonceConsumedError(signer, 7n), 'nonce_consumed'],
    [new FeeTooLowError('0x1', 'max fee per gas less than block base fee'), 'fee_too_low'],
    [new InsufficientFundsError('0x1', 'insufficient funds for gas * price + value'), 'insufficient_funds'],
    [new StoredTxMismatchError('to is 0x15d3...'), 'stored_tx_mismatch'],
    [new KmsAddressMismatchError('key-1', signer, signer), 'kms_key_mismatch'],
    [new ApprovalMissingError('was not approved by a second person'), 'approval_missing'],
    [new BarNotHeldError({ bar: null, state: 'no_bars', detail: 'the order has no bars' }), 'bar_not_held'],
    [new PermanentJobError('order 1 does not exist'), 'job_permanent_failure'],
    [new WorkerError('anything transient'), 'job_failed'],
  ])('%s -> %s', (error, code) => {
    expect(failureReasonOf(error)).toBe(code)
  })

  it('a failure nobody classified (a node, the database, a bug, a thrown string) is job_failed, as is an HTTP code', () => {
    for (const error of [new Error('connect ECONNREFUSED 10.0.0.5:8545'), 'boom', null, { code: 'reverted' }])
      expect(failureReasonOf(error)).toBe('job_failed')
    expect(failureReasonOf(new BarAlreadyUsedError({ bars: [{ serial: 'S', refiner: 'R' }] }))).toBe('job_failed')
  })

  it('every code is lowercase words: what a receiver can switch on', () => {
    for (const code of JOB_ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/)
    expect(new Set(JOB_ERROR_CODES).size).toBe(JOB_ERROR_CODES.length)
  })
})
