export type AvailableBarsLineParameters = {
  /** the bars listed so far */
  shown: number
  /** how many match in all, null when not counted */
  total: number | null
  vault: string
  /** the search text, '' for none */
  q: string
}

/** "2,000 available bars in LDN-1, 10 shown.": the real count, and how many of them the list shows. */
export function availableBarsLine({ shown, total, vault, q }: AvailableBarsLineParameters): string {
  const count = total ?? shown
  const bars = `${count.toLocaleString('en-US')} available bar${count === 1 ? '' : 's'}`
  const where = q ? `in ${vault} matching “${q}”` : `in ${vault}`
  return count > shown ? `${bars} ${where}, ${shown.toLocaleString('en-US')} shown.` : `${bars} ${where}.`
}
