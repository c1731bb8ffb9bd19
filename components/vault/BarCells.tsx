import type { ReactNode } from 'react'
import { cn } from '@/components/ui/cn'
import { ColumnHeader } from '@/components/ui/Table'
import type { ApiMintBar } from '@/lib/web/mint/apiTypes'

/** A bar's columns, in the order every bar table shows them. */
export type BarColumn = keyof ApiMintBar

const titles: Record<BarColumn, string> = {
  serial: 'Serial',
  refiner: 'Refiner',
  year: 'Year',
  grossOz: 'Gross oz',
  fineness: 'Fineness',
  fineOz: 'Fine oz',
}

const numeric: ReadonlySet<BarColumn> = new Set(['year', 'grossOz', 'fineness', 'fineOz'])

/** All six: serial, refiner, year, gross weight, fineness, fine weight. */
export const allBarColumns: readonly BarColumn[] = ['serial', 'refiner', 'year', 'grossOz', 'fineness', 'fineOz']

export type BarColumnsProps = {
  /** which of the bar's columns, in this order (all six unless told) */
  columns?: readonly BarColumn[]
  /** the padding of each cell */
  pad: string
  /** the serial's padding, where it differs (the first column of a table) */
  serialPad?: string
}

/** The titles of a bar's columns: the same words and alignment in every bar table. */
export function BarColumnHeaders({ columns = allBarColumns, pad, serialPad }: BarColumnsProps) {
  return columns.map((c) => (
    <ColumnHeader key={c} className={c === 'serial' ? (serialPad ?? pad) : pad} right={numeric.has(c)}>
      {titles[c]}
    </ColumnHeader>
  ))
}

export type BarCellsProps = BarColumnsProps & {
  /** the columns shown must be there (a missing bar of an import has only serial and refiner) */
  bar: Pick<ApiMintBar, 'serial' | 'refiner'> & Partial<ApiMintBar>
  /** the serial names its row (a row header), unless another column does */
  serialAs?: 'rowheader' | 'cell'
  /** shown under the serial (the problems with the bar) */
  children?: ReactNode
}

/**
 * A bar's cells, matching BarColumnHeaders: the serial in monospace (the row's header unless
 * told), the numbers right-aligned, the fine weight (what backs the tokens) in medium weight.
 */
export function BarCells({
  bar,
  columns = allBarColumns,
  pad,
  serialPad,
  serialAs = 'rowheader',
  children,
}: BarCellsProps) {
  return columns.map((c) => {
    if (c === 'serial') {
      const className = serialPad ?? pad
      return serialAs === 'rowheader' ? (
        <th key={c} scope="row" className={cn(className, 'text-left font-mono text-xs font-medium text-stone-800')}>
          {bar.serial}
          {children}
        </th>
      ) : (
        <td key={c} className={cn(className, 'font-mono text-xs')}>
          {bar.serial}
          {children}
        </td>
      )
    }
    return (
      <td
        key={c}
        className={cn(
          numeric.has(c) && 'tabular',
          pad,
          numeric.has(c) && 'text-right',
          c === 'fineOz' && 'font-medium',
        )}
      >
        {bar[c]}
      </td>
    )
  })
}
