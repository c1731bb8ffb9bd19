'use client'

import { type FormEvent, useEffect, useId, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { formatJobSearch, type JobSearch as JobSearchValue, parseJobSearch } from './parser'

export type JobSearchProps = {
  value: JobSearchValue
  onSearch: (value: JobSearchValue) => void
}

/**
 * One search box for the jobs: an order id, a recipient address, a tx hash, a job id or
 * words of an error, plus `task:name` and `state:name` filters.
 */
export function JobSearch({ value, onSearch }: JobSearchProps) {
  const [text, setText] = useState(() => formatJobSearch(value))
  const [errors, setErrors] = useState<string[]>([])
  const inputId = useId()
  const helpId = useId()
  const errorId = useId()

  // the URL changed elsewhere (a link, back button): show what is applied
  const applied = formatJobSearch(value)
  useEffect(() => {
    setText(applied)
  }, [applied])

  function submit(e: FormEvent) {
    e.preventDefault()
    const parsed = parseJobSearch(text)
    setErrors(parsed.errors)
    if (parsed.errors.length > 0) return
    onSearch({ state: parsed.state ?? value.state, task: parsed.task, q: parsed.q, housekeeping: value.housekeeping })
  }

  return (
    /* biome-ignore lint/a11y/useSemanticElements: role="search" on the form is ARIA's own landmark;
       <search> is not yet in every browser the desk supports */
    <form role="search" onSubmit={submit} className="space-y-1">
      <label htmlFor={inputId} className="sr-only">
        Search jobs
      </label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Order id, recipient, tx hash, job id or error text — task:mint_send"
          aria-describedby={errors.length > 0 ? `${helpId} ${errorId}` : helpId}
          aria-invalid={errors.length > 0 || undefined}
          className="font-mono"
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
        {applied ? (
          <Button
            variant="ghost"
            onClick={() => {
              setText('')
              setErrors([])
              onSearch({ state: value.state, housekeeping: value.housekeeping })
            }}
          >
            Clear
          </Button>
        ) : null}
      </div>
      <p id={helpId} className="text-xs text-stone-500">
        Finds a job by its id, its order id (or its first 8 characters, as the tables show it), the recipient address or
        a transaction hash (or how either starts: <code>0x7099</code>), or text in its errors (3 characters or more).
        Filters: <code>task:name</code>, <code>state:dead</code>.
      </p>
      {errors.length > 0 ? (
        <p id={errorId} role="alert" className="text-xs text-red-700">
          {errors.join(' ')}
        </p>
      ) : null}
    </form>
  )
}
