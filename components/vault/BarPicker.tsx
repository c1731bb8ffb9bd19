'use client'

import { type KeyboardEvent, useId, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { ScrollX } from '@/components/ui/ScrollX'
import type { ApiVaultBar } from '@/lib/web/vault/apiTypes'
import { availableBarsLine } from './availableBarsLine'
import { BarSearchResults } from './BarSearchResults'
import type { PickedBar } from './pickedBars'
import { useBarSearch } from './useBarSearch'

export type BarPickerProps = {
  /** the vault whose inventory is searched */
  vault: string
  picked: readonly PickedBar[]
  onAdd: (bar: ApiVaultBar) => void
  /** the search box's id, so the form can send the focus back to it */
  searchId: string
}

/**
 * Finds bars in the vault's inventory: a search box (serial or refiner; the server
 * compares without case, spaces or dashes) over the vault's available bars, and the
 * results with an "Add" button each. Only free bars of the latest bar list are offered:
 * those are the only ones a mint may claim (docs/api.md, POST /api/gold/mint).
 */
export function BarPicker({ vault, picked, onAdd, searchId }: BarPickerProps) {
  const [q, setQ] = useState('')
  const hintId = useId()
  const search = useBarSearch({ vault, q })
  const where = search.searched.vault

  // Enter in the search box searches now-ish; it must not submit the mint form around it
  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') e.preventDefault()
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Find bars</CardTitle>
        <CardDescription>
          Search the latest bar list of the vault by serial or refiner and add the bars behind this mint. Only available
          bars are listed: a bar can back one order only.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-2">
        {/* biome-ignore lint/a11y/useSemanticElements: ARIA's search landmark; <search> is not yet in
            every browser the desk supports */}
        <div role="search" aria-label="Bars in the vault">
          <Label htmlFor={searchId}>Search bars</Label>
          <Input
            id={searchId}
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={onKeyDown}
            placeholder="Serial or refiner, e.g. VC1001 or Valcambi"
            autoComplete="off"
            spellCheck={false}
            maxLength={64}
            aria-describedby={hintId}
          />
        </div>
        <p id={hintId} className="text-xs text-stone-500" role="status" aria-live="polite">
          {statusLine(search, where)}
        </p>
      </CardContent>
      {search.bars.length > 0 ? (
        <CardContent className={`p-0 ${search.pending ? 'opacity-60' : ''}`}>
          <ScrollX label="Available bars">
            <BarSearchResults
              label={`Available bars in ${where}`}
              bars={search.bars}
              picked={picked}
              onAdd={onAdd}
              fallbackFocusId={searchId}
            />
            {search.more ? (
              <div className="border-t border-stone-100 px-3 py-2">
                <Button variant="ghost" size="sm" onClick={search.more} disabled={search.loadingMore}>
                  {search.loadingMore ? 'Loading…' : 'Show more bars'}
                </Button>
              </div>
            ) : null}
          </ScrollX>
        </CardContent>
      ) : null}
    </Card>
  )
}

function statusLine(search: ReturnType<typeof useBarSearch>, vault: string): string {
  if (!search.enabled) return 'Enter the vault above to search its bars.'
  if (search.error) return `The search failed: ${search.error.message}`
  if (search.loading || (search.pending && search.bars.length === 0)) return 'Searching…'
  const q = search.searched.q
  if (search.bars.length === 0)
    return q ? `No available bar in ${vault} matches “${q}”.` : `Vault ${vault} has no available bar.`
  return availableBarsLine({ shown: search.bars.length, total: search.total, vault, q })
}
