/** The line under the amount: it is the bars' total, filled in as bars are added. */
export function AmountHint({ id, barCount }: { id: string; barCount: number }) {
  return (
    <p id={id} className="mt-1 text-xs text-stone-500">
      {barCount === 0
        ? 'Filled in from the bars: add bars from the vault below.'
        : `The total fine weight of the ${barCount === 1 ? 'bar' : `${barCount} bars`} below.`}
    </p>
  )
}
