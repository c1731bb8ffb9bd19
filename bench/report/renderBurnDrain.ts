import { formatOz } from '@/lib/reserves/formatOz'
import type { BenchResult } from '../BenchResult'
import { cpuPerOperation, drainCpuPerOrder, STACK_GROUPS } from './drainCpu'
import { num, p50p99, rate } from './format'

export type RenderBurnDrainParameters = {
  result: BenchResult
  line: (s?: string) => void
  table: (head: string[], rows: string[][]) => void
}

/** Section 8: the burn drain beside the same run's 1 signer x 1 worker mint drain. */
export function renderBurnDrain({ result: r, line, table }: RenderBurnDrainParameters): void {
  line('## 8. Burn drain beside the mint drain')
  line()
  const b = r.burn
  if (!b) {
    line('Not measured in this run (`--burns 0`).')
    line()
    return
  }
  const mint = r.drains.find((d) => d.signers === 1 && d.workers === 1)
  line(
    `${b.redemptions} redemptions (docs/decisions/055-redemptions.md), all signed and queued at once, then drained by 1 worker process with 1 signer, measured as the mint drain of 1 signer x 1 worker of section 1 is (${mint ? `${mint.orders} orders` : 'none in this run'}). Setup, not measured (${num(b.setupSeconds, 0)} s): one confirmed 400 oz mint per redemption to four holders (anvil's dev accounts 1 to 4; baseline orders as section 1's chain baselines seed theirs, relayed by the holders), each mint's amount sent back to GoldMinter's redemption address (GoldToken.transfer, signed beforehand and sent raw with explicit nonces, the holders in parallel), one worker running until its \`deposit_watch\` recorded every deposit, then one redemption per deposit matched to one bar of equal fine weight (\`lib/web/redemptions/createRedemption.ts\`). With no worker running the dev approvers sign each RedemptionIntent (as many as GoldMinter requires) and post it to \`POST /api/gold/redemptions/{id}/approve\` (the web checks it and adds the \`redemption_send\` job; filled at ${rate(b.approval.perSecond)}/s); then the worker starts and the burns are timed from the first job event of the batch to its last \`confirmed\` event (the redemption's \`burned\`, in the same transaction). CPU per operation: each process group's over the drain's window and the approvals' window, per confirmed mint or burned redemption. The supply fell by ${formatOz(b.supply.beforeWei - b.supply.afterWei)} oz over the burns (deposited: ${formatOz(b.depositedWei)} oz).`,
  )
  line()
  const burnCpu = cpuPerOperation({ cpu: b.cpu, approval: b.approval.cpu, count: b.burned })
  const row = (
    label: string,
    ops: number,
    perSecond: number,
    seconds: number,
    cpu: { total: number; byGroup: Record<string, number> },
    busy: string,
  ) => [
    label,
    String(ops),
    rate(perSecond),
    num(seconds, 1),
    num(cpu.total, 1),
    ...STACK_GROUPS.map((g) => num(cpu.byGroup[g] ?? NaN, 1)),
    busy,
  ]
  table(
    ['', 'done', 'ops/s', 'drain s', 'CPU ms / op', ...STACK_GROUPS.map((g) => `${g} ms`), 'machine busy'],
    [
      ...(mint
        ? [
            row(
              'mints (1 signer x 1 worker)',
              mint.byStatus.confirmed ?? 0,
              mint.confirmedPerSecond,
              mint.seconds,
              drainCpuPerOrder(mint),
              `${num(mint.cpu.machineBusy, 2)} / ${mint.cpu.cores}`,
            ),
          ]
        : []),
      row(
        'burns (1 signer x 1 worker)',
        b.burned,
        b.burnedPerSecond,
        b.seconds,
        burnCpu,
        `${num(b.cpu.machineBusy, 2)} / ${b.cpu.cores}`,
      ),
    ],
  )
  const statuses = Object.entries(b.byStatus)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ')
  line(
    `Redemptions at the end: ${statuses}${b.settled ? '' : ' (not all settled at the timeout)'}; failed attempts ${b.failures}.`,
  )
  line()
  if (b.latencies.stages.length > 0) {
    line('Steps of a burn during the drain (p50 / p99 ms; under a full queue the waits are queueing):')
    line()
    table(
      ['step', 'burns'],
      b.latencies.stages.map((st) => [st.name, p50p99(st.summary)]),
    )
  }
}
