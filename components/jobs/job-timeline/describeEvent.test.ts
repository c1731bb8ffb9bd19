import { describe, expect, it } from 'vitest'
import { describeEvent } from './describeEvent'

describe('describeEvent', () => {
  it('names attempts and admins', () => {
    expect(describeEvent({ event: 'failed', attempt: 2, actor: 'w-1', task: 'mint_send' })).toEqual({
      title: 'Attempt 2 failed',
      tone: 'danger',
    })
    expect(describeEvent({ event: 'retried', attempt: 5, actor: 'admin@mintdesk.local', task: 'mint_send' })).toEqual({
      title: 'Retried by admin@mintdesk.local',
      tone: 'admin',
    })
    expect(describeEvent({ event: 'confirmed', attempt: null, actor: null, task: 'order_confirm' }).tone).toBe(
      'success',
    )
  })
  it('says why a job is a dead letter: a permanent error before its last attempt, or its attempts used up', () => {
    const dead = { event: 'dead', actor: null, task: 'mint_send', maxAttempts: 5 }
    expect(describeEvent({ ...dead, attempt: 1 }).title).toBe('Dead letter: a permanent error, not retried')
    expect(describeEvent({ ...dead, attempt: 5 }).title).toBe('Dead letter: attempts used up')
    expect(describeEvent({ ...dead, attempt: 1, maxAttempts: null }).title).toBe('Dead letter')
  })
  it('shows an unknown event under its own name', () => {
    expect(describeEvent({ event: 'fee_bumped', attempt: null, actor: null, task: 'x' })).toEqual({
      title: 'fee bumped',
      tone: 'neutral',
    })
  })
})
