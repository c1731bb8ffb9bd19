import type { Hex } from 'viem'
import artifactJson from '@/contracts/GoldToken.json' with { type: 'json' }
import { GoldTokenArtifactError } from '@/scripts/errors/contract'
import { goldTokenAbi } from '../../lib/chain/goldTokenAbi.generated'

export type ReadGoldTokenArtifactReturnType = {
  contractName: 'GoldToken'
  /** the literal, fully typed ABI (contracts/compile.test.ts checks it equals the artifact's) */
  abi: typeof goldTokenAbi
  /** creation bytecode; the constructor takes `address admin` */
  bytecode: Hex
  solcVersion: string
  sourceHash: Hex
}

/**
 * The compiled GoldToken from the committed artifact contracts/GoldToken.json (built by
 * `npm run contracts:build`). Only deploy scripts and tests need the bytecode; the rest
 * of the code uses goldTokenAbi alone.
 */
export function readGoldTokenArtifact(): ReadGoldTokenArtifactReturnType {
  const { contractName, bytecode, solcVersion, sourceHash } = artifactJson
  if (contractName !== 'GoldToken') throw new GoldTokenArtifactError(`contracts/GoldToken.json holds ${contractName}`)
  if (!isHex(bytecode) || bytecode.length <= 2)
    throw new GoldTokenArtifactError('contracts/GoldToken.json has no bytecode')
  if (!isHex(sourceHash)) throw new GoldTokenArtifactError('contracts/GoldToken.json has no sourceHash')
  return { contractName, abi: goldTokenAbi, bytecode, solcVersion, sourceHash }
}

function isHex(value: string): value is Hex {
  return /^0x(?:[0-9a-f]{2})*$/i.test(value)
}
