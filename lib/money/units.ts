/** Weights are counted in milli-troy-ounces: 3 decimals, as on a bar list. */
export const OZ_DECIMALS = 3
/** The token has 18 decimals; 1 token = 1 fine troy ounce. */
export const TOKEN_DECIMALS = 18
/** wei per milli-ounce: 10^(18 - 3) */
export const WEI_PER_MILLI_OZ = 10n ** BigInt(TOKEN_DECIMALS - OZ_DECIMALS)
