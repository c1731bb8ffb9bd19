import type { DbOrTx } from '@/db/client'
import type { ExpositionFamily } from './formatExposition'
import { readHistoryCounters } from './readHistoryCounters'
import { readHistoryHistograms } from './readHistoryHistograms'
import { readProcessSeries } from './readProcessSeries'

/**
 * Every counter and histogram family of GET /api/metrics (decision 020), in a stable
 * order: from the history tables, then the per-process series summed over processes.
 */
export async function readCounterFamilies(db: DbOrTx): Promise<ExpositionFamily[]> {
  const [counters, histograms, processSeries] = await Promise.all([readHistoryCounters(db), readHistoryHistograms(db), readProcessSeries(db)])
  const byName = new Map([...counters, ...histograms, ...processSeries].map((f) => [f.name, f]))
  return [...byName.values()]
}
