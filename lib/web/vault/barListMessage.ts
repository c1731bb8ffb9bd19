import { barListAsOf } from '@/lib/chain/barListAsOf'
import { barsRoot, totalFineWei, vaultId } from '@/lib/chain/bars'
import { type BarList, barListTypedData, type GoldMinterDomainParameters } from '@/lib/chain/typedData'
import { parseDecimal } from '@/lib/money/parseDecimal'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'

/** A bar list as the custodian's signature covers it: its vault, time, and bars' fine weights. */
export type BarListToSign = {
  vault: string
  asOf: Date
  bars: readonly { serial: string; refiner: string; fineOz: string }[]
}

/**
 * The BarList a custodian signs for a list (lib/chain/typedData.ts): vaultId(vault), asOf in
 * whole Unix seconds, the StandardMerkleTree root of its bars (serial, refiner, fine weight in
 * wei as the inventory computes it: gross x fineness / 1000 rounded down to 0.001 oz) and their
 * total. The web verifies imports against it, the worker verifies the stored list again.
 */
export function barListMessage(list: BarListToSign): BarList {
  // the bars as the hashes see them, made one at a time as the root and the total read them (no copy of the list)
  function* hashed() {
    for (const b of list.bars) yield { serial: b.serial, refiner: b.refiner, fineWei: fineWeiOf(b.fineOz) }
  }
  return {
    vault: vaultId(list.vault),
    asOf: barListAsOf(list.asOf),
    barsRoot: barsRoot(hashed()),
    totalFineWei: totalFineWei(hashed()),
  }
}

function fineWeiOf(fineOz: string): bigint {
  return parseDecimal(fineOz, { decimals: 3 }) * WEI_PER_MILLI_OZ
}

/** The list's BarList as EIP-712 typed data, for eth_signTypedData_v4. */
export function barListMessageTypedData(domain: GoldMinterDomainParameters, list: BarListToSign) {
  return barListTypedData(domain, barListMessage(list))
}
