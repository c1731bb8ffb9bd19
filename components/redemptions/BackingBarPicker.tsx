'use client'

import { type KeyboardEvent, useId, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { ScrollX } from '@/components/ui/ScrollX'
import { ColumnHeader, EmptyRow, TableHead } from '@/components/ui/Table'
import type { ApiVaultBar } from '@/lib/web/vault/apiTypes'
import { useBackingBarSearch } from './useBackingBarSearch'

export type BackingBarPickerProps = {
  /** the ids of the bars picked already: their buttons say "Added" */
  pickedIds: readonly string[]
  onAdd: (bar: ApiVaultBar) => void
}

/**
 * Finds the bars a redemption may take: a search box (serial or refiner; the server compares without case, spaces
 * or dashes) over the backing bars of every vault, and the results, each with an "Add" button.
 */
export function BackingBarPicker({ pickedIds, onAdd }: BackingBarPickerProps) {
  const [q, setQ] = useState('')
  const searchId = useId()
  const hintId = useId()
  const search = useBackingBarSearch({ q })

  // Enter in the search box must not submit the redemption form around it
  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') e.preventDefault()
  }

  return (
    <div className="space-y-2">
      {/* biome-ignore lint/a11y/useSemanticElements: ARIA's search landmark; <search> is not yet in
          every browser the desk supports */}
      <div role="search" aria-label="Backing bars">
        <Label htmlFor={searchId}>Search backing bars</Label>
        <Input
          id={searchId}
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Serial or refiner"
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          aria-describedby={hintId}
        />
      </div>
      <p id={hintId} className="text-xs text-stone-500" role="status" aria-live="polite">
        {search.error
          ? `The search failed: ${search.error.message}`
          : search.loading
            ? 'Searching…'
            : `${(search.total ?? search.bars.length).toLocaleString('en-US')} backing bar${search.total === 1 ? '' : 's'}${search.searched ? ` matching “${search.searched}”` : ''}${(search.total ?? 0) > search.bars.length ? `, ${search.bars.length} shown` : ''}.`}
      </p>
      <ScrollX label="Backing bars found" className="rounded-md border border-stone-200">
        <table className="w-full text-sm" aria-label="Backing bars found">
          <TableHead>
            <ColumnHeader className="px-3 py-2">Serial</ColumnHeader>
            <ColumnHeader className="px-3 py-2">Refiner</ColumnHeader>
            <ColumnHeader className="px-3 py-2">Vault</ColumnHeader>
            <ColumnHeader className="px-3 py-2" right>
              Fine oz
            </ColumnHeader>
            <ColumnHeader className="px-3 py-2">
              <span className="sr-only">Actions</span>
            </ColumnHeader>
          </TableHead>
          <tbody>
            {search.bars.length === 0 && !search.loading ? (
              <EmptyRow colSpan={5} text="No backing bar matches." />
            ) : null}
            {search.bars.map((bar) => {
              const added = pickedIds.includes(bar.id)
              return (
                <tr key={bar.id} className="border-t border-stone-100">
                  <th scope="row" className="px-3 py-1.5 text-left font-mono text-xs font-medium text-stone-800">
                    {bar.serial}
                  </th>
                  <td className="px-3 py-1.5">{bar.refiner}</td>
                  <td className="px-3 py-1.5 font-mono text-xs">{bar.vault}</td>
                  <td className="tabular px-3 py-1.5 text-right font-medium">{bar.fineOz}</td>
                  <td className="px-3 py-1 text-right">
                    <Button
                      variant={added ? 'ghost' : 'secondary'}
                      size="sm"
                      disabled={added}
                      aria-label={
                        added ? `Bar ${bar.serial} (${bar.refiner}): added` : `Add bar ${bar.serial} (${bar.refiner})`
                      }
                      onClick={() => onAdd(bar)}
                    >
                      {added ? 'Added' : 'Add'}
                    </Button>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </ScrollX>
    </div>
  )
}
