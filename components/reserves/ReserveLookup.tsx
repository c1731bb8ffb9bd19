'use client'

import { useQuery } from '@tanstack/react-query'
import { usePathname, useRouter } from 'next/navigation'
import { type FormEvent, useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { BackedMints } from './BackedMints'
import {
  fetchReserveLookup,
  type LookupQuery,
  lookupSearch,
  lookupText,
  parseLookupInput,
  reserveLookupQueryKey,
} from './reservesApi'

/**
 * The allocation lookup (as PAXG's): an address, a transaction hash or a bar serial -> the
 * confirmed mints and the bars backing each (a serial: also the bar itself, free or not). The
 * query goes in the URL (?address= / ?tx= / ?serial=), so a result can be linked to; the page
 * passes it back in as `initial`.
 */
export function ReserveLookup({ initial }: { initial: LookupQuery | null }) {
  const router = useRouter()
  const pathname = usePathname()
  const [text, setText] = useState(initial ? lookupText(initial) : '')
  const [query, setQuery] = useState<LookupQuery | null>(initial)
  const [inputError, setInputError] = useState<string | null>(null)
  const lookup = useQuery({
    queryKey: reserveLookupQueryKey(query),
    queryFn: () => fetchReserveLookup(query as LookupQuery),
    enabled: query !== null,
    staleTime: 30_000,
  })

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = parseLookupInput(text)
    if (!parsed) {
      // the error stands alone: the result of the last lookup is not the answer to this one
      setInputError(
        'Enter an address (0x and 40 hex digits), a transaction hash (0x and 64 hex digits) or a bar serial.',
      )
      setQuery(null)
      router.replace(pathname, { scroll: false })
      return
    }
    setInputError(null)
    setQuery(parsed)
    router.replace(`${pathname}?${lookupSearch(parsed)}`, { scroll: false })
  }

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" noValidate>
        <div className="min-w-72 flex-1">
          <Label htmlFor="reserve-lookup">Address, transaction hash or bar serial</Label>
          <Input
            id="reserve-lookup"
            name="q"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="0x… or a serial"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            aria-invalid={inputError ? true : undefined}
            aria-describedby={inputError ? 'reserve-lookup-error' : undefined}
          />
        </div>
        <Button type="submit">Look up</Button>
      </form>
      {inputError ? (
        <p id="reserve-lookup-error" className="text-sm text-red-700">
          {inputError}
        </p>
      ) : null}
      {lookup.error ? <Alert tone="error">{lookup.error.message}</Alert> : null}
      {query && lookup.isPending ? (
        <p className="text-sm text-stone-500" role="status">
          Looking up…
        </p>
      ) : null}
      {query && lookup.data ? <BackedMints lookup={lookup.data} /> : null}
    </div>
  )
}
