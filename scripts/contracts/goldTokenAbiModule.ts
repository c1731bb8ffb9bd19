import path from 'node:path'
import { renderAbiModule } from './renderAbiModule'

/** Where the generated GoldToken ABI lives, from the repository root. */
export const GOLD_TOKEN_ABI_MODULE = path.join('lib', 'chain', 'goldTokenAbi.generated.ts')

/** The text of lib/chain/goldTokenAbi.generated.ts for the artifact's ABI. */
export function goldTokenAbiModule(abi: readonly unknown[]): string {
  return renderAbiModule(abi, {
    exportName: 'goldTokenAbi',
    source: 'contracts/GoldToken.json',
    generator: 'scripts/compile-contracts.ts',
    staleTest: 'lib/chain/goldTokenAbi.generated.test.ts',
  })
}
