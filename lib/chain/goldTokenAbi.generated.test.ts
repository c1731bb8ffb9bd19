import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { GoldTokenArtifactJson } from '@/contracts/compile'
import { GOLD_TOKEN_ABI_MODULE, goldTokenAbiModule } from '@/scripts/contracts/goldTokenAbiModule'
import { goldTokenAbi } from './goldTokenAbi.generated'

const root = path.resolve(import.meta.dirname, '..', '..')
const artifact = JSON.parse(
  readFileSync(path.join(root, 'contracts', 'GoldToken.json'), 'utf8'),
) as GoldTokenArtifactJson

describe('lib/chain/goldTokenAbi.generated.ts', () => {
  it('is what scripts/compile-contracts.ts generates from contracts/GoldToken.json (else run npm run contracts:build)', () => {
    expect(readFileSync(path.join(root, GOLD_TOKEN_ABI_MODULE), 'utf8')).toBe(goldTokenAbiModule(artifact.abi))
  })

  it("exports the artifact's ABI", () => {
    expect(goldTokenAbi).toEqual(artifact.abi)
  })
})
