import type { Address } from 'viem'
import type { MintRequestInput } from '../../lib/mint/mintRequestSchema'
import { buildMintRequest } from '../../tests/helpers/buildMintRequest'

export type MintBody = { request: MintRequestInput; json: string }

export type MintBodies = { next: () => MintBody; count: () => number }

/**
 * Valid mint requests whose bars are never used twice: two Good Delivery bars per order
 * (as the API's example), serials `<runId>-<n>-A` / `-B`, so every request of a run
 * (API, raw SQL, pipeline) claims bars of its own and none is refused as already used.
 * Recipients are used round-robin, as the chain baselines use them.
 */
export function createMintBodies({ runId, recipients }: { runId: string; recipients: readonly Address[] }): MintBodies {
  const template = buildMintRequest({ bars: [{ serial: 'A' }, { serial: 'B' }], receiptRef: `VR-BENCH-${runId}` })
  let n = 0
  return {
    next: () => {
      const i = n++
      const request: MintRequestInput = {
        ...template,
        to: recipients[i % recipients.length] as string,
        vaultProof: {
          ...template.vaultProof,
          bars: template.vaultProof.bars.map((bar, b) => ({ ...bar, serial: `${runId}-${i}-${b === 0 ? 'A' : 'B'}` })),
        },
      }
      return { request, json: JSON.stringify(request) }
    },
    count: () => n,
  }
}
