import path from 'node:path'
import { renderAbiModule } from './renderAbiModule'

/** Where the generated GoldMinter ABI lives, from the repository root. */
export const GOLD_MINTER_ABI_MODULE = path.join('lib', 'chain', 'goldMinterAbi.generated.ts')

/** The text of lib/chain/goldMinterAbi.generated.ts for the artifact's ABI. */
export function goldMinterAbiModule(abi: readonly unknown[]): string {
  return renderAbiModule(abi, {
    exportName: 'goldMinterAbi',
    source: 'contracts/GoldMinter.json',
    generator: 'scripts/compile-contracts.ts',
    staleTest: 'lib/chain/goldMinterAbi.generated.test.ts',
  })
}
