/** A confirmed event's detail: "1 confirmation", "12 confirmations". */
export function confirmationsText(confirmations: bigint | number): string {
  return `${confirmations} confirmation${BigInt(confirmations) === 1n ? '' : 's'}`
}
