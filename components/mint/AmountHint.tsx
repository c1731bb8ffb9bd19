import { cn } from '@/components/ui/cn'
import type { AmountCheck } from './mintFormModel'

const text: Record<AmountCheck, { message: (total: string) => string; tone: string }> = {
  empty: { message: (total) => `Total of the bars: ${total} oz.`, tone: 'text-stone-500' },
  invalid: { message: () => 'Digits and at most 3 decimals, e.g. 802.168.', tone: 'text-amber-700' },
  incomplete: { message: () => 'Complete the bars to check the amount against their total.', tone: 'text-stone-500' },
  matches: { message: (total) => `Matches the total fine weight of the bars (${total} oz).`, tone: 'text-emerald-700' },
  differs: { message: (total) => `Differs from the total fine weight of the bars: ${total} oz.`, tone: 'text-amber-700' },
}

/** The live line under the amount: how it compares with the bars' total fine weight. */
export function AmountHint({ id, check, total }: { id: string; check: AmountCheck; total: string }) {
  return (
    <p id={id} className={cn('mt-1 text-xs', text[check].tone)} aria-live="polite">
      {text[check].message(total)}
    </p>
  )
}
