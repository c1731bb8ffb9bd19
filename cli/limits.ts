// Shows or sets the mint limits: `node limits.mjs` in the worker image (bundled by
// scripts/build-release.ts), `tsx cli/limits.ts` from a checkout. Production workers
// refuse to start while either limit is unset (worker/runtime/requireMintLimits.ts), so a
// deploy sets both once, as a one-off ECS task before the first worker starts
// (docs/deploy.md); afterwards admins change them on the /admin/controls page.
//
//   node limits.mjs                                            show them
//   node limits.mjs --max-order-oz 5000 --daily-cap-oz 50000   set both (fine oz, up to 3 decimals)
//   node limits.mjs --max-order-oz unlimited ...               unset one (dev only: production refuses to start)
//
// Both options together or neither. Audited as "cli:limits". Needs DATABASE_URL (the
// password may come from PGPASSWORD). Exit 0 shown or set, 2 usage, 1 anything else.
import { parseArgs } from 'node:util'
import { createDb } from '@/db/client'
import { loadConfig } from '@/lib/config/loadConfig'
import { readApiMintLimits } from '@/lib/controls/readApiMintLimits'
import { setMintLimitsBodySchema } from '@/lib/controls/schemas'
import { setMintLimits } from '@/lib/controls/setMintLimits'
import { createCliLog, runCli } from './cli'

const log = createCliLog('mintdesk-limits')
const USAGE = 'usage: limits [--max-order-oz OZ|unlimited --daily-cap-oz OZ|unlimited]'

async function main(): Promise<number> {
  let values: { 'max-order-oz'?: string; 'daily-cap-oz'?: string }
  try {
    ;({ values } = parseArgs({
      options: { 'max-order-oz': { type: 'string' }, 'daily-cap-oz': { type: 'string' } },
      strict: true,
    }))
  } catch (err) {
    log('error', `${USAGE}: ${err instanceof Error ? err.message : String(err)}`)
    return 2
  }
  const given = [values['max-order-oz'], values['daily-cap-oz']].filter((v) => v !== undefined).length
  if (given === 1) {
    log('error', `${USAGE} (both limits together)`)
    return 2
  }
  const asLimit = (v: string | undefined) =>
    v === undefined || v.trim().toLowerCase() === 'unlimited' ? null : v.trim()
  const body = setMintLimitsBodySchema.safeParse({
    maxOrderOz: asLimit(values['max-order-oz']),
    dailyCapOz: asLimit(values['daily-cap-oz']),
  })
  if (given === 2 && !body.success) {
    log('error', `${USAGE}: ${body.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`)
    return 2
  }

  const config = loadConfig({ role: 'tool' })
  const { db, close } = createDb({ url: config.databaseUrl, max: 1, name: 'mintdesk-limits' })
  try {
    if (given === 0 || !body.success) {
      log('info', 'mint limits', { ...(await readApiMintLimits(db)) })
      return 0
    }
    const limits = await setMintLimits(db, { ...body.data, actor: { id: 'cli:limits', email: 'cli:limits' } })
    log('info', 'mint limits set', { ...limits })
    return 0
  } finally {
    await close()
  }
}

await runCli({ name: 'limits', log, main })
