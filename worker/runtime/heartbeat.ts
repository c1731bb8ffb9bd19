import type { Db } from '@/db/client'
import { archiveHistory } from '../db/archiveHistory'
import { touchWorker } from '../db/touchWorker'
import { ensureDepositWatchJob } from './ensureDepositWatchJob'
import { ensureNonceHealthJob } from './ensureNonceHealthJob'
import { ensureNonceResyncJob } from './ensureNonceResyncJob'
import { ensureReserveCheckJob } from './ensureReserveCheckJob'
import type { WorkerLogger } from './logger'
import { sweepStaleWorkers } from './sweepStaleWorkers'

export type StartHeartbeatParameters = {
  workerId: string
  heartbeatMs: number
  staleAfterMs: number
  log: WorkerLogger
  /**
   * This worker must stop at once: another worker declared it dead (and may be running
   * its jobs), or it could not heartbeat for longer than staleAfterMs.
   */
  onFenced: (reason: string) => void
  /** RETENTION_MONTHS: each tick also moves one bounded batch of older detail to the archive (archiveHistory); 0 off */
  retentionMonths?: number
}

export type Heartbeat = { stop: () => Promise<void> }

/**
 * Every heartbeatMs: this worker's heartbeat (workers.last_seen_at), then the sweep that
 * frees the jobs of workers silent for longer than staleAfterMs, then making sure the
 * periodic singletons exist (nonce health, nonce resync, reserve check, deposit watch), then with RETENTION_MONTHS one
 * batch of the history retention (archiveHistory: every worker may run it, a row moves once). One tick at a time; a
 * failing tick is logged and retried.
 */
export function startHeartbeat(db: Db, p: StartHeartbeatParameters): Heartbeat {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  let lastBeat = Date.now()

  const tick = async () => {
    try {
      const alive = await touchWorker(db, { id: p.workerId })
      if (!alive) {
        p.onFenced('another worker marked this worker stopped (its heartbeat was late): its jobs may run elsewhere')
        return
      }
      lastBeat = Date.now()
    } catch (error) {
      p.log.error({ err: error }, 'heartbeat failed')
      if (Date.now() - lastBeat > p.staleAfterMs) {
        p.onFenced(`no heartbeat for ${Date.now() - lastBeat} ms`)
        return
      }
    }
    try {
      await sweepStaleWorkers(db, { selfId: p.workerId, staleAfterMs: p.staleAfterMs, log: p.log })
      await ensureNonceHealthJob(db, { actor: p.workerId })
      await ensureNonceResyncJob(db, { actor: p.workerId })
      await ensureReserveCheckJob(db, { actor: p.workerId })
      await ensureDepositWatchJob(db, { actor: p.workerId })
    } catch (error) {
      p.log.error({ err: error }, 'stale worker sweep failed')
    }
    if (p.retentionMonths) {
      try {
        const moved = await archiveHistory(db, { months: p.retentionMonths, maxBatches: 1 })
        if (moved.jobEvents + moved.jobRecords + moved.webhookDeliveries > 0)
          p.log.info({ ...moved }, 'history retention: older detail moved to the archive')
      } catch (error) {
        p.log.error({ err: error }, 'history retention failed')
      }
    }
  }

  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => {
      running = tick().finally(schedule)
    }, p.heartbeatMs)
  }
  running = tick().finally(schedule)

  return {
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
