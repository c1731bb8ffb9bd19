import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { GoldMinterArtifactJson } from '@/contracts/compile'
import { GOLD_MINTER_ABI_MODULE, goldMinterAbiModule } from '@/scripts/contracts/goldMinterAbiModule'
import { goldMinterAbi } from './goldMinterAbi.generated'

const root = path.resolve(import.meta.dirname, '..', '..')
const artifact = JSON.parse(
  readFileSync(path.join(root, 'contracts', 'GoldMinter.json'), 'utf8'),
) as GoldMinterArtifactJson

describe('lib/chain/goldMinterAbi.generated.ts', () => {
  it('is what scripts/compile-contracts.ts generates from contracts/GoldMinter.json (else run npm run contracts:build)', () => {
    expect(readFileSync(path.join(root, GOLD_MINTER_ABI_MODULE), 'utf8')).toBe(goldMinterAbiModule(artifact.abi))
  })

  it("exports the artifact's ABI", () => {
    expect(goldMinterAbi).toEqual(artifact.abi)
  })
})
