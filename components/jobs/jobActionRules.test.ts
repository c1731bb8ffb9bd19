import { describe, expect, it } from 'vitest'
import { JOB_STATES } from '@/lib/jobs/jobStates'
import { canCancel, canRetry } from './jobActionRules'

describe('job action rules', () => {
  it('retry only dead or retrying; cancel anything waiting, never running or finished', () => {
    expect(JOB_STATES.filter(canRetry)).toEqual(['retrying', 'dead'])
    expect(JOB_STATES.filter(canCancel)).toEqual(['queued', 'scheduled', 'retrying', 'dead'])
  })
})
