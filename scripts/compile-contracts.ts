// npm run contracts:build - compile contracts/GoldToken.sol and contracts/GoldMinter.sol,
// write the committed artifacts contracts/GoldToken.json and contracts/GoldMinter.json
// (contracts/compile.test.ts checks they are current) and the typed ABIs generated from
// them, lib/chain/goldTokenAbi.generated.ts and lib/chain/goldMinterAbi.generated.ts
// (lib/chain/goldTokenAbi.generated.test.ts and lib/chain/goldMinterAbi.generated.test.ts
// check they match the artifacts).
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type ContractArtifactJson, compileGoldMinter, compileGoldToken } from '../contracts/compile'
import { GOLD_MINTER_ABI_MODULE, goldMinterAbiModule } from './contracts/goldMinterAbiModule'
import { GOLD_TOKEN_ABI_MODULE, goldTokenAbiModule } from './contracts/goldTokenAbiModule'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function write(artifact: ContractArtifactJson, abiModule: string, abiModuleText: string): void {
  const out = path.join(root, 'contracts', `${artifact.contractName}.json`)
  writeFileSync(out, `${JSON.stringify(artifact, null, 2)}\n`)
  console.log(
    `wrote ${path.relative(root, out)}: solc ${artifact.solcVersion}, ${(artifact.bytecode.length - 2) / 2} bytes, sourceHash ${artifact.sourceHash}`,
  )
  writeFileSync(path.join(root, abiModule), abiModuleText)
  console.log(`wrote ${abiModule}: ${artifact.abi.length} ABI entries`)
}

const token = compileGoldToken({ root })
write(token, GOLD_TOKEN_ABI_MODULE, goldTokenAbiModule(token.abi))
const minter = compileGoldMinter({ root })
write(minter, GOLD_MINTER_ABI_MODULE, goldMinterAbiModule(minter.abi))
