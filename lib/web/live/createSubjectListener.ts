import type { DbClient } from '@/db/client'

/** The channel the trigger job_events_notify_subjects notifies: the payload is one operation's id. */
export const SUBJECT_CHANNEL = 'mintdesk_subject'

/** What a subscriber is told: `changed`, its operation's timeline grew; `resync`, notifications may be lost. */
export type SubjectSignal = 'changed' | 'resync'

export type SubjectListener = {
  /** calls `onSignal` for each change of operation `id` until the returned function is called */
  subscribe: (id: string, onSignal: (signal: SubjectSignal) => void) => () => void
  /** subscriptions open now, across ids */
  size: () => number
}

/**
 * One LISTEN per web process on SUBJECT_CHANNEL (postgres.js keeps it on a connection of its own, outside the
 * pool, and listens again after a reconnect), fanned out to the subscribers of each id. It listens from the first
 * subscription on. After every (re)connect but the first, every subscriber is told `resync`: what changed while the
 * connection was down sent no notification.
 */
export function createSubjectListener(sql: Pick<DbClient['sql'], 'listen'>): SubjectListener {
  const subscribers = new Map<string, Set<(signal: SubjectSignal) => void>>()
  let listening: Promise<unknown> | undefined
  let connects = 0
  const tell = (set: Iterable<(signal: SubjectSignal) => void> | undefined, signal: SubjectSignal) => {
    for (const fn of set ?? []) fn(signal)
  }
  const start = () => {
    listening ??= sql
      .listen(
        SUBJECT_CHANNEL,
        (payload) => tell(subscribers.get(payload), 'changed'),
        () => {
          connects++
          if (connects > 1) for (const set of subscribers.values()) tell(set, 'resync')
        },
      )
      .catch((error: unknown) => {
        // a LISTEN that never started: the next subscription tries again; the pages poll meanwhile
        listening = undefined
        for (const set of subscribers.values()) tell(set, 'resync')
        throw error
      })
    listening.catch(() => {})
  }
  return {
    subscribe: (id, onSignal) => {
      start()
      const set = subscribers.get(id) ?? new Set()
      subscribers.set(id, set)
      set.add(onSignal)
      return () => {
        set.delete(onSignal)
        if (set.size === 0 && subscribers.get(id) === set) subscribers.delete(id)
      }
    },
    size: () => [...subscribers.values()].reduce((n, s) => n + s.size, 0),
  }
}
