/**
 * A bar list's asOf as GoldMinter orders a vault's lists (BarList.asOf): whole Unix seconds,
 * the fraction of a second dropped. A list is newer than another only when its second is after
 * the other's; the web refuses the list the contract would refuse (lib/web/vault/importBarList).
 *
 *   barListAsOf(new Date('2026-01-01T06:00:00.900Z')) // 1767247200n
 */
export function barListAsOf(asOf: Date): bigint {
  return BigInt(Math.floor(asOf.getTime() / 1000))
}
