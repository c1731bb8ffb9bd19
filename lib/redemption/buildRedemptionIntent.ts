import { getAddress } from 'viem'
import { barsHash } from '@/lib/chain/bars'
import {
  type GoldMinterDomainParameters,
  type RedemptionIntent,
  redemptionIntentTypedData,
} from '@/lib/chain/typedData'
import type { IntentBar } from '@/lib/mint/buildMintIntent'
import { orderIdToBytes32 } from '@/lib/mint/orderIdToBytes32'
import { WEI_PER_MILLI_OZ } from '@/lib/money/units'

export type BuildRedemptionIntentParameters = {
  /** the redemption's uuid */
  redemptionId: string
  /** GoldMinter's redemption address, as the chain says: the burn takes the tokens from there */
  redemptionAddress: string
  /** the bars it takes out of backing, in their positions: the amount is their fine weight */
  bars: readonly IntentBar[]
  /** the redemption's intent_deadline */
  deadline: Date
}

/**
 * THE RedemptionIntent of a redemption, rebuilt from the redemption and its bars (never from an amount a row
 * states): the web shows and verifies it, the worker verifies it again and relays it, the tests sign it. The
 * amount is the sum of the bars' fine weights (the web refuses a redemption whose deposit differs), the id the
 * uuid left-padded to 32 bytes, the deadline in whole Unix seconds.
 */
export function buildRedemptionIntent(p: BuildRedemptionIntentParameters): RedemptionIntent {
  const hashed = p.bars.map((b) => ({
    serial: b.serial,
    refiner: b.refiner,
    fineWei: b.fineMilliOz * WEI_PER_MILLI_OZ,
  }))
  return {
    redemptionId: orderIdToBytes32(p.redemptionId),
    from: getAddress(p.redemptionAddress),
    amount: hashed.reduce((sum, b) => sum + b.fineWei, 0n),
    barsHash: barsHash(hashed),
    deadline: BigInt(Math.floor(p.deadline.getTime() / 1000)),
  }
}

/** The redemption's intent as EIP-712 typed data for eth_signTypedData_v4 / viem's signTypedData. */
export function buildRedemptionIntentTypedData(domain: GoldMinterDomainParameters, p: BuildRedemptionIntentParameters) {
  return redemptionIntentTypedData(domain, buildRedemptionIntent(p))
}
