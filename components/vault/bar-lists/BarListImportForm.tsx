'use client'

import { type FormEvent, useEffect, useId, useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { ApiError } from '@/lib/web/errors/api'
import { barListFormatOf } from '../barListImportRequest'
import { BarListImportResult } from './BarListImportResult'
import { ImportProgressBar } from './ImportProgressBar'
import { issuePlace } from './issuePlace'
import { useImportBarList } from './useImportBarList'

/** Now, to the second, as ISO 8601 UTC: the as-of time a list received today usually has. */
function nowIso(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`
}

/**
 * Imports a custodian's bar list from a file: JSON (it names its vault and as-of time) or
 * CSV (serial,refiner,year,grossOz,fineness; the vault and as-of time are given here).
 * Shows the import's result (added, unchanged, withdrawn, missing bars, conflicts) or
 * why it was refused (a stale list, the file's invalid lines).
 */
export function BarListImportForm() {
  const ids = { file: useId(), vault: useId(), asOf: useId(), hint: useId(), signature: useId() }
  const [file, setFile] = useState<File | null>(null)
  const [vault, setVault] = useState('')
  const [custodianSignature, setCustodianSignature] = useState('')
  // set after hydration: the server's clock and the browser's differ
  const [asOf, setAsOf] = useState('')
  useEffect(() => setAsOf((current) => current || nowIso()), [])
  const importList = useImportBarList()
  const format = file ? barListFormatOf({ fileName: file.name, fileType: file.type }) : null

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    if (!file || importList.isPending) return
    importList.mutate({ file, vault, asOf, custodianSignature })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Import a bar list</CardTitle>
        <CardDescription>
          A snapshot of one vault: bars new to it become available, bars it lacks are withdrawn (or missing, when an
          order holds them). Importing the same list again changes nothing; a list older than the vault&apos;s latest is
          refused.
        </CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} aria-label="Import a bar list" noValidate>
        <CardContent className="grid gap-4 sm:grid-cols-3">
          <div>
            <Label htmlFor={ids.file}>Bar list file</Label>
            <input
              id={ids.file}
              type="file"
              accept=".json,.csv,application/json,text/csv"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null)
                importList.reset()
              }}
              aria-describedby={ids.hint}
              className="block w-full text-sm text-stone-700 file:mr-3 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-stone-800 hover:file:bg-stone-100"
            />
            <p id={ids.hint} className="mt-1 text-xs text-stone-500">
              {format === 'json'
                ? 'JSON: the file names its vault and as-of time.'
                : format === 'csv'
                  ? 'CSV: give its vault and as-of time.'
                  : 'JSON, or CSV with the header serial,refiner,year,grossOz,fineness.'}
            </p>
          </div>
          <div>
            <Label htmlFor={ids.vault}>Vault (CSV)</Label>
            <Input
              id={ids.vault}
              value={vault}
              onChange={(e) => setVault(e.target.value)}
              placeholder="LDN-1"
              disabled={format === 'json'}
              autoComplete="off"
            />
          </div>
          <div>
            <Label htmlFor={ids.asOf}>As of (CSV, ISO 8601)</Label>
            <Input
              id={ids.asOf}
              value={asOf}
              onChange={(e) => setAsOf(e.target.value)}
              placeholder="2026-11-30T06:00:00Z"
              disabled={format === 'json'}
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-xs"
            />
          </div>
          <div className="sm:col-span-3">
            <Label htmlFor={ids.signature}>Custodian signature</Label>
            <Input
              id={ids.signature}
              value={custodianSignature}
              onChange={(e) => setCustodianSignature(e.target.value.trim())}
              placeholder="0x… (the custodian's EIP-712 signature of this list, docs/custodians.md)"
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-xs"
            />
          </div>
        </CardContent>
        <CardFooter>
          <Button type="submit" disabled={!file || importList.isPending}>
            {importList.isPending ? 'Importing…' : 'Import list'}
          </Button>
        </CardFooter>
      </form>
      {importList.progress ? (
        <CardContent>
          <ImportProgressBar progress={importList.progress} />
        </CardContent>
      ) : null}
      {importList.error ? (
        <CardContent>
          <ImportError error={importList.error} />
        </CardContent>
      ) : null}
      {importList.data ? (
        <CardContent>
          <BarListImportResult result={importList.data} />
        </CardContent>
      ) : null}
    </Card>
  )
}

function ImportError({ error }: { error: Error }) {
  const issues = error instanceof ApiError ? error.issues : []
  return (
    <Alert tone="error" title={`The list was not imported. ${error.message}`}>
      {issues.length > 0 ? (
        <ul className="list-disc space-y-0.5 pl-5">
          {issues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              <span className="font-medium">{issuePlace(issue.path)}</span>: {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  )
}
