import { expect, it } from 'vitest'
import { runWebhookKills } from '@/tests/chaos/webhookKills'

// The kill test of "once per recipient". Short form in npm test: 3 kills. Long
// form, whose figures docs/reliability.md reports:
//   WEBHOOK_KILLS=100 npx vitest run tests/notifications/webhookKills.int.test.ts
// A worker SIGKILLed during each delivery loses no event; each kill costs at most one late
// duplicate (the receiver had the request, the worker never learned the answer).
const kills = Number(process.env.WEBHOOK_KILLS ?? 3)

it(
  `${kills} SIGKILLs of the worker during a delivery: every event arrives, at most one duplicate per kill`,
  async () => {
    const result = await runWebhookKills({ kills, log: kills > 3 ? (line) => console.log(line) : undefined })
    console.log(`[webhook kills] ${JSON.stringify(result)}`)
    expect(result.lost).toBe(0)
    expect(result.undelivered).toBe(0)
    expect(result.duplicates).toBeLessThanOrEqual(result.kills)
  },
  120_000 + kills * 40_000,
)
