// npm run contracts:build - compile contracts/GoldToken.sol and write the committed
// artifact contracts/GoldToken.json (contracts/compile.test.ts checks it is current).
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileGoldToken } from '../contracts/compile'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const artifact = compileGoldToken({ root })
const out = path.join(root, 'contracts', 'GoldToken.json')
writeFileSync(out, `${JSON.stringify(artifact, null, 2)}\n`)
console.log(
  `wrote ${path.relative(root, out)}: solc ${artifact.solcVersion}, ${(artifact.bytecode.length - 2) / 2} bytes, sourceHash ${artifact.sourceHash}`,
)
