import { computeFineOz } from '@/lib/mint/computeFineOz'
import type { MintRequestInput } from '@/lib/mint/mintRequestSchema'
import { formatDecimal } from '@/lib/money/formatDecimal'
import { parseDecimal } from '@/lib/money/parseDecimal'

// TEST ONLY: valid mint requests with whatever bars a test needs.

export type TestBar = { serial: string; refiner?: string; grossOz?: string; fineness?: string; year?: number }

export type BuildMintRequestParameters = {
  bars: TestBar[]
  to?: string
  vault?: string
  receiptRef?: string
}

export const TEST_RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
export const TEST_DOCUMENT_SHA256 = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'

/** A request whose fine weights and amount are computed right, for the given bars. */
export function buildMintRequest(p: BuildMintRequestParameters): MintRequestInput {
  let total = 0n
  const bars = p.bars.map((b) => {
    const grossOz = b.grossOz ?? '401.125'
    const fineness = b.fineness ?? '999.9'
    const fine = computeFineOz({
      grossMilliOz: parseDecimal(grossOz, { decimals: 3 }),
      finenessHundredths: parseDecimal(fineness, { decimals: 2 }),
    })
    total += fine
    return {
      serial: b.serial,
      refiner: b.refiner ?? 'Valcambi SA',
      year: b.year ?? 2025,
      grossOz,
      fineness,
      fineOz: formatDecimal(fine, { decimals: 3, minFraction: 3 }),
    }
  })
  return {
    to: p.to ?? TEST_RECIPIENT,
    amount: formatDecimal(total, { decimals: 3, minFraction: 3 }),
    vaultProof: {
      vault: p.vault ?? 'LDN-1',
      receiptRef: p.receiptRef ?? 'VR-2026-000123',
      documentSha256: TEST_DOCUMENT_SHA256,
      bars,
    },
  }
}
