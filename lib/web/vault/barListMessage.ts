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
  const bars = list.bars.map((b) => ({
    serial: b.serial,
    refiner: b.refiner,
    fineWei: parseDecimal(b.fineOz, { decimals: 3 }) * WEI_PER_MILLI_OZ,
  }))
  return {
    vault: vaultId(list.vault),
    asOf: BigInt(Math.floor(list.asOf.getTime() / 1000)),
    barsRoot: barsRoot(bars),
    totalFineWei: totalFineWei(bars),
  }
}

/** The list's BarList as EIP-712 typed data, for eth_signTypedData_v4. */
export function barListMessageTypedData(domain: GoldMinterDomainParameters, list: BarListToSign) {
  return barListTypedData(domain, barListMessage(list))
}
