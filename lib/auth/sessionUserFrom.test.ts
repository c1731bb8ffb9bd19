import { describe, expect, it } from 'vitest'
import { sessionUserFrom } from './sessionUserFrom'

describe('sessionUserFrom', () => {
  it('reads { id, email, role } from a session', () => {
    expect(sessionUserFrom({ user: { id: 'u1', email: 'a@x.test', role: 'admin', name: 'A' } })).toEqual({
      id: 'u1',
      email: 'a@x.test',
      role: 'admin',
    })
  })
  it('returns null for a missing session or a user without our claims', () => {
    expect(sessionUserFrom(null)).toBeNull()
    expect(sessionUserFrom({})).toBeNull()
    expect(sessionUserFrom({ user: { email: 'a@x.test', role: 'staff' } })).toBeNull()
    expect(sessionUserFrom({ user: { id: 'u1', email: 'a@x.test', role: 'root' } })).toBeNull()
    expect(sessionUserFrom({ user: { id: 'u1', role: 'staff' } })).toBeNull()
  })
})
