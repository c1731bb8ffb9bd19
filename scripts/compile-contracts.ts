// npm run contracts:build - compile contracts/GoldToken.sol, write the committed
// artifact contracts/GoldToken.json (contracts/compile.test.ts checks it is current) and
// the typed ABI generated from it, lib/chain/goldTokenAbi.generated.ts
// (lib/chain/goldTokenAbi.generated.test.ts checks it matches the artifact).
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileGoldToken } from '../contracts/compile'
import { GOLD_TOKEN_ABI_MODULE, goldTokenAbiModule } from './contracts/goldTokenAbiModule'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const artifact = compileGoldToken({ root })
const out = path.join(root, 'contracts', 'GoldToken.json')
writeFileSync(out, `${JSON.stringify(artifact, null, 2)}\n`)
console.log(
  `wrote ${path.relative(root, out)}: solc ${artifact.solcVersion}, ${(artifact.bytecode.length - 2) / 2} bytes, sourceHash ${artifact.sourceHash}`,
)
writeFileSync(path.join(root, GOLD_TOKEN_ABI_MODULE), goldTokenAbiModule(artifact.abi))
console.log(`wrote ${GOLD_TOKEN_ABI_MODULE}: ${artifact.abi.length} ABI entries`)
