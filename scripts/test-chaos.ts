// npm run test:chaos [-- --runs 3] [--orders 500] [--workers 3] [--seed N] [--rotation-orders 300]
// [--restore-orders 50]: the long chaos suite (tests/chaos/runLongChaos.ts), run N times in a row on a fresh stack
// each time, then the disaster drills with their long form's orders: the signing key's rotation
// (tests/worker/rotationDrill.int.test.ts) and the database restored from a backup
// (tests/worker/restoreDrill.int.test.ts).
// Writes the measured figures to docs/reliability.md and exits non-zero if any run found
// a problem. The short form of the same faults runs in `npm test` (tests/attack/).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { prepareWebSnapshot, WEB_SNAPSHOT } from '../tests/chaos/chaosStack'
import { renderProductionFaults } from '../tests/chaos/productionFaults'
import { activeStops, type LongChaosResult, REDEMPTIONS, runLongChaos } from '../tests/chaos/runLongChaos'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`)
  const v = i >= 0 ? Number(argv[i + 1]) : fallback
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} must be a positive integer`)
  return v
}
const runs = arg('runs', 1)
const orders = arg('orders', 500)
const workers = arg('workers', 3)
const outOfGasOrders = arg('out-of-gas-orders', 20)
const rotationOrders = arg('rotation-orders', 300)
const restoreOrders = arg('restore-orders', 50)
const firstSeed = arg('seed', Number(new Date().toISOString().slice(0, 10).replaceAll('-', '')))
const command = `npm run test:chaos -- ${argv.join(' ')}`.trim()
const reportFile = path.join(root, 'docs', 'reliability.md')
const base = path.join(root, '.data', 'chaos')
// sections measured by other tests (the webhook kills, ...) sit below this marker and survive a new report
const KEEP_MARKER = '<!-- sections below are kept by npm run test:chaos -->'
const kept = existsSync(reportFile) ? readFileSync(reportFile, 'utf8').split(KEEP_MARKER)[1] : undefined

const log = (line: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}`)

mkdirSync(base, { recursive: true })
// Ctrl-C / SIGTERM: stop what the current run started (workers, web, KMS endpoint, anvil, Postgres), then exit
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the stack`)
    void Promise.allSettled([...activeStops].map((stop) => stop())).then(() => process.exit(130))
  })
}
const started = new Date()
const webDir = path.join(base, WEB_SNAPSHOT)
const t0 = Date.now()
const buildId = await prepareWebSnapshot({ root, into: webDir, log })
const snapshotMs = Date.now() - t0

const results: LongChaosResult[] = []
for (let i = 0; i < runs; i++) {
  const seed = firstSeed + i
  log(`run ${i + 1} of ${runs} (seed ${seed}): ${orders} orders, ${workers} workers`)
  const r = await runLongChaos({
    root,
    dataDir: path.join(base, `run-${i + 1}`),
    webDir,
    orders,
    workers,
    outOfGasOrders,
    seed,
    log,
  })
  results.push(r)
  log(
    `run ${i + 1}: ${r.ok ? 'PASSED' : 'FAILED'} in ${Math.round(r.durations.total / 1000)} s${r.ok ? '' : `\n  ${r.problems.slice(0, 30).join('\n  ')}`}`,
  )
  writeFileSync(reportFile, report(results) + (kept === undefined ? '' : `\n${KEEP_MARKER}${kept}`))
}
/** The disaster drills: each a test of the suite run with its long form's orders, its figures line in the report. */
const drills: Drill[] = [
  {
    title: "The signing key's rotation drill",
    file: 'tests/worker/rotationDrill.int.test.ts',
    tag: 'rotationDrill',
    env: { ROTATION_DRILL_ORDERS: String(rotationOrders) },
    about: `${rotationOrders} orders (docs/deploy.md "Rotating the signing key")`,
  },
  {
    title: 'The restore drill',
    file: 'tests/worker/restoreDrill.int.test.ts',
    tag: 'restoreDrill',
    env: { RESTORE_DRILL_ORDERS: String(restoreOrders) },
    about: `${restoreOrders} orders minted between the copy and the restore (docs/deploy.md "A database restored from a backup")`,
  },
]
const drilled: DrillResult[] = []
for (const drill of drills) {
  log(`${drill.title}: ${drill.about}`)
  const r = await runDrill(drill)
  drilled.push(r)
  log(`${drill.title}: ${r.ok ? 'PASSED' : 'FAILED'}${r.figures ? `\n  ${r.figures}` : ''}`)
  writeFileSync(
    reportFile,
    report(results) + drilled.map(drillSection).join('') + (kept === undefined ? '' : `\n${KEEP_MARKER}${kept}`),
  )
}
log(`${results.filter((r) => r.ok).length} of ${runs} runs passed; figures in ${path.relative(root, reportFile)}`)
process.exit(results.every((r) => r.ok) && drilled.every((d) => d.ok) ? 0 : 1)

type Drill = { title: string; file: string; tag: string; env: Record<string, string>; about: string }
type DrillResult = { drill: Drill; ok: boolean; figures: string | null; ms: number }

/** A drill's test in vitest with its long form's environment: its `[tag] ...` figures line. */
async function runDrill(drill: Drill): Promise<DrillResult> {
  const t0 = Date.now()
  const child = spawn('npx', ['vitest', 'run', drill.file], {
    cwd: root,
    env: { ...process.env, ...drill.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8')
  })
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  const figures = new RegExp(`\\[${drill.tag}\\] (.*)`).exec(out)?.[1] ?? null
  if (code !== 0) console.log(out.slice(-4000))
  return { drill, ok: code === 0, figures, ms: Date.now() - t0 }
}

function drillSection(d: DrillResult): string {
  return `
## ${d.drill.title}

\`${d.drill.file}\` with ${d.drill.about}:
**${d.ok ? 'passed' : 'FAILED'}** in ${s(d.ms)}. ${d.figures ?? 'No figures: see the output above.'}
`
}

function s(ms: number | undefined): string {
  return ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`
}

function report(rs: LongChaosResult[]): string {
  const col = (f: (r: LongChaosResult) => string | number) => rs.map((r) => String(f(r))).join(' | ')
  const row = (label: string, f: (r: LongChaosResult) => string | number) => `| ${label} | ${col(f)} |`
  const head = `| | ${rs.map((_, i) => `run ${i + 1}`).join(' | ')} |\n|---|${rs.map(() => '---').join('|')}|`
  const lost = (r: LongChaosResult) => r.invariants?.lost.length ?? 'n/a'
  const doubled = (r: LongChaosResult) => r.invariants?.doubled.length ?? 'n/a'
  return `# Reliability: the chaos suite's figures

Written by \`scripts/test-chaos.ts\`; do not edit by hand. Produced by:

\`\`\`sh
${command}
\`\`\`

Started ${started.toISOString()} on ${os.cpus().length} CPU core(s), ${os.hostname()}; web build \`${buildId}\` (snapshot in ${s(snapshotMs)}).
**${rs.filter((r) => r.ok).length} of ${rs.length} run(s) passed** (${runs} asked).

Each run boots a fresh stack (embedded Postgres, anvil with 1 s blocks and a state file,
the local KMS endpoint with 2 signer keys, the web's production build, ${workers} workers), then:

1. **${orders} orders through the HTTP API** (signed in with the credentials flow, \`Origin\`
   on every POST, an \`Idempotency-Key\` per order, a 5xx or a timeout retried with the same
   key) while a driver **SIGKILLs a random worker every 2-5 s** (a supervisor starts a new
   one, as ECS would) and a **fast-check fuzzer** sends bad input to the same endpoint all
   along; 25 s in, **Postgres is stopped and started again** on the same data and port
   (~4 s down); 20 s later **anvil is SIGKILLed and restarted from a state file 5 s old**
   (it forgets the blocks since); then one worker beside the pool after another
   **SIGKILLs itself at each step of a batched send** (after reserving the batch's nonces,
   after storing their signatures, after broadcasting them); then **holders redeem ${REDEMPTIONS} confirmed
   orders** (a deposit to the redemption address, staff's request with the order's bars, the approver's
   signature, the burn) and an address is **frozen and unfrozen**, a random worker SIGKILLed every 2-5 s;
2. a **rolling deploy**: each worker replaced, then sent SIGTERM while jobs run;
3. **the signers out of gas money** (anvil_setBalance 0): ${outOfGasOrders} orders' jobs retry with
   the real back-off and land in the dead letters; the signers are funded and an admin's
   bulk retry (\`POST /api/admin/jobs/retry { state: "dead", task: "mint_send" }\`) confirms them;
4. the invariants, on Postgres and on the chain's own logs: every order confirmed or failed
   with a reason, one \`Minted\` event per confirmed order (none for any other), one \`Burned\`
   event per burned redemption, total supply = the confirmed sum less the burned sum, \`signer_nonces\` contiguous and mined, chain nonce = \`next_nonce\`,
   no job locked by a dead worker, every worker exits 0 on the final SIGTERM; the logs and
   every error body searched for the stack's secrets.

## Figures

${head}
${row('result', (r) => (r.ok ? '**passed**' : '**FAILED**'))}
${row('seed', (r) => r.seed)}
${row('orders accepted (of planned)', (r) => `${r.intake.accepted} / ${orders}`)}
${row('intake requests (retries after a 5xx/timeout)', (r) => `${r.intake.requests} (${r.intake.retried} orders retried)`)}
${row('intake statuses', (r) =>
  Object.entries(r.intake.byStatus)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', '),
)}
${row('intake hangs (no answer in 15 s)', (r) => r.intake.hangs)}
${row('slowest intake answer', (r) => s(r.intake.maxLatencyMs))}
${row('workers SIGKILLed', (r) => r.workers.sigkills)}
${row('workers SIGTERMed (deploy + final stop)', (r) => r.workers.sigterms)}
${row('worker processes started', (r) => r.workers.started)}
${row('worker crashes (a started worker exiting on its own)', (r) => r.workers.crashes.length)}
${row('workers that failed to start (e.g. while Postgres was down)', (r) => r.workers.startFailures)}
${row('jobs taken over from a dead worker (unlocked)', (r) => r.events.unlocked ?? 0)}
${row('Postgres restarts / down for', (r) => (r.postgres ? `1 / ${s(r.postgres.downMs)}` : '-'))}
${row('/api/ready while Postgres down', (r) =>
  r.postgres
    ? Object.entries(r.postgres.readyWhileDown)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')
    : '-',
)}
${row('intake while Postgres down', (r) => (r.postgres ? r.postgres.intakeWhileDown.map((i) => `${i.status} in ${i.ms} ms`).join(', ') : '-'))}
${row('ready again after restart', (r) => s(r.postgres?.recoveredAfterMs))}
${row('anvil restarts / blocks forgotten / mints forgotten', (r) => (r.anvil ? `1 / ${r.anvil.forgottenBlocks} / ${r.anvil.forgottenMints}` : '-'))}
${row('stall recoveries / rebroadcasts / reorgs noticed', (r) => `${r.events.stalled ?? 0} / ${r.events.rebroadcast ?? 0} / ${r.events.reorged ?? 0}`)}
${row('send failpoints: died there (after_reserve, after_sign, after_broadcast)', (r) => (r.failpoints?.length ? r.failpoints.map((c) => (c.diedThere ? 'yes' : 'no')).join(' / ') : '-'))}
${row('deploy: workers replaced / jobs held at SIGTERM / left locked', (r) => (r.deploy ? `${r.deploy.replaced} / ${r.deploy.exits.map((e) => e.heldAtSigterm).join('+')} / ${r.deploy.exits.reduce((n, e) => n + e.lockedAfter, 0)}` : '-'))}
${row('deploy: graceful stop took', (r) => (r.deploy ? r.deploy.exits.map((e) => s(e.ms)).join(', ') : '-'))}
${row('out of gas: dead letters / attempts each / bulk-retried / confirmed', (r) => (r.outOfGas ? `${r.outOfGas.dead} / ${[...new Set(r.outOfGas.attempts)].join(',')} / ${r.outOfGas.retried} / ${r.outOfGas.confirmed}` : '-'))}
${row('out of gas: dead after / confirmed after retry', (r) => (r.outOfGas ? `${s(r.outOfGas.deadAfterMs)} / ${s(r.outOfGas.confirmedAfterMs)}` : '-'))}
${row('bad inputs tried', (r) => r.fuzz?.tried ?? '-')}
${row('bad input answers', (r) =>
  r.fuzz
    ? Object.entries(r.fuzz.byStatus)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')
    : '-',
)}
${row('orders in the database (expected)', (r) => `${r.invariants?.orders ?? '-'} (${orders + outOfGasOrders})`)}
${row('confirmed / failed with a reason', (r) => `${r.invariants?.confirmed ?? '-'} / ${r.invariants?.failed ?? '-'}`)}
${row('Minted events on chain', (r) => r.invariants?.mintedEvents ?? '-')}
${row('redemptions planned / signed / burned / Burned events', (r) => (r.redemptions ? `${r.redemptions.planned} / ${r.redemptions.signed} / ${r.redemptions.burned} / ${r.redemptions.burnedEvents}` : '-'))}
${row('compliance operations applied / with a problem', (r) => (r.redemptions ? `${r.redemptions.complianceApplied} / ${r.redemptions.complianceProblems}` : '-'))}
${row('total supply = confirmed sum - burned sum', (r) => (r.invariants ? `${r.invariants.supply === r.invariants.confirmedSum - r.invariants.burnedSum ? 'yes' : 'NO'} (${formatOz(r.invariants.supply)} oz)` : '-'))}
${row('nonces: next_nonce = chain, gaps, unmined', (r) => (r.invariants ? r.invariants.signers.map((x) => `${x.nextNonce}=${x.chainLatest}, ${x.gaps.length}, ${x.unmined.length}`).join('; ') : '-'))}
${row('**lost**', (r) => `**${lost(r)}**`)}
${row('**minted twice**', (r) => `**${doubled(r)}**`)}
${row('secrets found in logs / error bodies', (r) => `${r.secrets.findings.length} (${r.secrets.scanned} texts, ${(r.secrets.bytes / 1e6).toFixed(1)} MB searched)`)}
${row(
  'workers that died on their own when Postgres went away (replaced), by cause',
  (r) =>
    Object.entries(r.knownIssues.workerDeaths)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ') || '0',
)}
${row('postgres.js null-socket crashes tolerated in the driver', (r) => r.knownIssues.postgresJsNullSocketInDriver)}
${row('uncaught exceptions logged by the web', (r) => r.knownIssues.webUncaught)}
${row('boot', (r) => s(r.durations.boot))}
${row('phase 1 (orders + faults, settled)', (r) => s(r.durations.phase1))}
${row('out of gas phase', (r) => s(r.durations.outOfGas))}
${row('**total**', (r) => `**${s(r.durations.total)}**`)}
${renderProductionFaults(rs.map((r) => r.production))}${rs.some((r) => r.workers.crashes.length > 0) ? `\n## Worker crashes\n\n${rs.map((r, i) => r.workers.crashes.map((c) => `- run ${i + 1}: ${c.name} exited ${c.code}/${c.signal} (log: ${c.logFile})`).join('\n')).join('\n')}\n` : ''}${
  rs.some((r) => !r.ok)
    ? `\n## Problems\n\n${rs
        .map((r, i) =>
          r.ok
            ? ''
            : `### run ${i + 1}\n\n${r.problems
                .slice(0, 50)
                .map((p) => `- ${p.replaceAll('\n', ' ')}`)
                .join('\n')}\n`,
        )
        .join('\n')}`
    : ''
}
`
}

function formatOz(wei: bigint): string {
  const milli = wei / 10n ** 15n
  return `${milli / 1000n}.${(milli % 1000n).toString().padStart(3, '0')}`
}
