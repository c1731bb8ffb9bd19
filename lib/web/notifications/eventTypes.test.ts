import { describe, expect, it } from 'vitest'
import { NOTIFICATION_EVENT_TYPES as inSchema } from '@/db/schema/notifications'
import { NOTIFICATION_EVENT_TYPES as inLib } from './eventTypes'

describe('the notification event types', () => {
  it("the client-safe list (lib) is the database check constraint's list (db)", () => {
    expect([...inLib]).toEqual([...inSchema])
  })
})
