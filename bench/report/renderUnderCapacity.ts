import type { RenderSectionParameters } from '../runs/BenchRun'
import type { Summary } from '../system/percentiles'
import { STACK_GROUPS } from './drainCpu'
import { cpuMsPer, ms, num, rate, signersLabel, statusCell } from './format'
import { notificationCost } from './notificationCost'

/**
 * Section 2: the paced run at half the measured capacity beside the floor run, graphile-worker's own pickup (a row),
 * and the notifications the runs left, sent between them.
 */
export function renderUnderCapacity({ result: r, line, table }: RenderSectionParameters): void {
  const o = r.options
  line('## 2. Under capacity')
  line()
  const p = r.paced
  if (!p) {
    line('Not measured in this run.')
    line()
    return
  }
  line(
    `One worker process, ${signersLabel(Math.min(...o.signerCounts))}, ${p.submitted} orders sent at a steady ${p.perSecond}/s (open loop), half the capacity measured by that drain (${rate(p.capacity)}/s). One block = ${o.blockTime * 1000} ms, one poll = CONFIRM_POLL_MS ${r.worker.confirmPollMs} ms.`,
  )
  const f = r.floor
  if (f) {
    line(
      `Beside it, the floor: the same path at ${f.perSecond}/s (${f.submitted} orders), slow enough that each order is a batch of its own and none waits for another: how long the path itself is.`,
    )
  }
  line()
  const stageOf = (name: string) => f?.stages.find((x) => x.name === name)?.summary
  const floorCells = (x: Summary | undefined) => (f ? [x ? ms(x.p50) : 'n/a', x ? ms(x.p99) : 'n/a'] : [])
  const row = (label: string, x: Summary, floor: Summary | undefined) => [
    label,
    ms(x.p50),
    ms(x.p99),
    String(x.n),
    ...floorCells(floor),
  ]
  table(
    [
      '',
      `p50 ms (${p.perSecond}/s)`,
      `p99 ms (${p.perSecond}/s)`,
      'n',
      ...(f ? [`p50 ms (${f.perSecond}/s)`, `p99 ms (${f.perSecond}/s)`] : []),
    ],
    [
      row(
        'committed (approval transaction: its job added) -> broadcast',
        p.committedToBroadcast,
        f?.committedToBroadcast,
      ),
      row('broadcast -> confirmed', p.broadcastToConfirmed, f?.broadcastToConfirmed),
      row('committed -> confirmed', p.committedToConfirmed, f?.committedToConfirmed),
      ...p.stages.map((x) => row(x.name, x.summary, stageOf(x.name))),
      ...(r.noop
        ? [
            [
              `graphile-worker's own pickup: no-op task, ${r.noop.jobs} jobs at 20/s (bench/pickup)`,
              ms(r.noop.pickup.p50),
              ms(r.noop.pickup.p99),
              `${r.noop.started}`,
              ...(f ? ['', ''] : []),
            ],
          ]
        : []),
    ],
  )
  line(
    `Orders: ${statusCell(p.byStatus, p.refused)}; CPU over the run (cores): ${STACK_GROUPS.map((g) => `${g} ${num(p.cpu.byGroup[g] ?? 0, 2)}`).join(', ')}.`,
  )
  const nb = notificationCost(r.notifications)
  if (nb) {
    line()
    line(
      `Before each drain but the first, before these runs and before section 7, a worker sent the notifications the runs before had left: the email of each confirmed order to its requester, several of one requester in one digest message (at most 50, docs/decisions/033-notifications.md), all on one address's lane. ` +
        `They run after the mint jobs (priority 10), so a drain's window, which ends at its last confirmation, holds few of them and its CPU per order leaves them out. ` +
        `In all: ${nb.emails} emails (orders' events to an address) in ${nb.messages} messages and ${nb.webhooks} webhooks in ${num(nb.seconds, 1)} s (${rate((nb.emails + nb.webhooks) / Math.max(0.001, nb.seconds))}/s)${nb.unsettled > 0 ? `, ${nb.unsettled} window(s) ending at their timeout` : ''}; ` +
        `CPU per notification (ms): ${STACK_GROUPS.map((g) => `${g} ${num(nb.msPer[g] ?? 0, 1)}`).join(', ')}; the bench's own process, which holds the local SMTP sink, ${num(nb.msPer.bench ?? 0, 1)}.`,
    )
  }
  if (f) {
    const n = Math.max(1, f.submitted)
    line()
    line(
      `At ${f.perSecond}/s: ${statusCell(f.byStatus, f.refused)}; CPU over the run (cores): ${STACK_GROUPS.map((g) => `${g} ${num(f.cpu.byGroup[g] ?? 0, 2)}`).join(', ')}; ` +
        `per order (ms): ${STACK_GROUPS.map((g) => `${g} ${num(cpuMsPer(f.cpu, g, n), 1)}`).join(', ')}. At this rate each order is a batch of its own, and the work that runs whatever the rate (a block every second, the confirmer's pass at each block and its polls for the next, graphile-worker's polls) is shared by few orders.`,
    )
  }
  line()
}
