// npx tsx scripts/bench-history.ts [--scale 1] [--data-dir .data/bench-history] [--iterations 30]: the history
// bench on its own (bench/history/): an embedded Postgres in the data directory, migrated (a run after a new
// migration applies it to the seeded year: the before and after of a change), a year of history seeded once at the
// given scale, every admin list and search, page, the reserves API and the public lookup measured, the section
// printed in markdown. `npm run bench` runs it too (bench/runs/historyRun.ts, --history-scale, --history-data).
import { parseArgs } from 'node:util'
import { renderHistory } from '../bench/history/renderHistory'
import { runHistoryOnDataDir } from '../bench/history/runHistoryOnDataDir'

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    'data-dir': { type: 'string', default: '.data/bench-history' },
    iterations: { type: 'string', default: '30' },
  },
})
const result = await runHistoryOnDataDir({
  dataDir: values['data-dir'],
  scale: Number(values.scale),
  iterations: Number(values.iterations),
  log: (line) => console.error(line),
})
console.log(renderHistory(result))
