import { describe, expect, it } from 'vitest'
import { EMAIL_DIGEST_MAX } from '@/worker/notifications/dispatchNotificationBatch'
import { emailSendPayload } from './emailSend'

const id = (n: number) => `2b7c3c1e-5d7a-4a8f-9a51-${String(n).padStart(12, '0')}`

describe('the email_send payload', () => {
  it('the rows of one email; a job queued before the digest ({ emailId }) is read as one row', () => {
    expect(emailSendPayload.parse({ emailIds: [id(1), id(2)] })).toEqual({ emailIds: [id(1), id(2)] })
    expect(emailSendPayload.parse({ emailId: id(3) })).toEqual({ emailIds: [id(3)] })
  })

  it(`refuses no rows, more than ${EMAIL_DIGEST_MAX}, or an id that is not a uuid`, () => {
    expect(emailSendPayload.safeParse({ emailIds: [] }).success).toBe(false)
    expect(
      emailSendPayload.safeParse({ emailIds: Array.from({ length: EMAIL_DIGEST_MAX + 1 }, (_, i) => id(i)) }).success,
    ).toBe(false)
    expect(emailSendPayload.safeParse({ emailIds: ['x'] }).success).toBe(false)
    expect(emailSendPayload.safeParse({ emailId: 'x' }).success).toBe(false)
  })
})
