import { useId } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'
import { describedBy } from './describedBy'
import { FieldError } from './FieldError'
import type { FieldErrors } from './mintFormModel'

export type VaultProofField = 'vault' | 'receiptRef' | 'documentSha256'

export type VaultProofFieldsProps = {
  vault: string
  receiptRef: string
  documentSha256: string
  errors: FieldErrors
  /** true while the chosen document is hashed */
  hashing: boolean
  /** the document whose hash fills the SHA-256 field, if it was chosen here */
  documentName: string | null
  onChange: (field: VaultProofField, value: string) => void
  onFile: (file: File) => void
  /** the SHA-256 was typed by hand: it is not the chosen document's */
  onShaTyped: () => void
}

/**
 * The vault receipt behind the bars: the vault (whose inventory the bars are picked
 * from), the receipt reference and the receipt document's SHA-256, typed or computed
 * from the chosen file.
 */
export function VaultProofFields(props: VaultProofFieldsProps) {
  const { errors, hashing, documentName, onChange } = props
  const ids = { vault: useId(), receiptRef: useId(), file: useId(), sha: useId() }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Vault proof</CardTitle>
        <CardDescription>
          The vault receipt for these bars. The document itself stays on your computer: only its SHA-256 is sent.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor={ids.vault}>Vault</Label>
          <Input
            id={ids.vault}
            name="vault"
            value={props.vault}
            onChange={(e) => onChange('vault', e.target.value)}
            placeholder="LDN-1"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={errors['vaultProof.vault'] ? true : undefined}
            aria-describedby={describedBy(errors, {
              errorId: `${ids.vault}-error`,
              path: 'vaultProof.vault',
              hintId: `${ids.vault}-hint`,
            })}
          />
          <FieldError id={`${ids.vault}-error`} message={errors['vaultProof.vault']} />
          <p id={`${ids.vault}-hint`} className="mt-1 text-xs text-stone-500">
            The bars below are searched in this vault&apos;s latest bar list.
          </p>
        </div>
        <div>
          <Label htmlFor={ids.receiptRef}>Vault receipt reference</Label>
          <Input
            id={ids.receiptRef}
            name="receiptRef"
            value={props.receiptRef}
            onChange={(e) => onChange('receiptRef', e.target.value)}
            placeholder="VR-2026-000123"
            aria-invalid={errors['vaultProof.receiptRef'] ? true : undefined}
            aria-describedby={describedBy(errors, {
              errorId: `${ids.receiptRef}-error`,
              path: 'vaultProof.receiptRef',
            })}
          />
          <FieldError id={`${ids.receiptRef}-error`} message={errors['vaultProof.receiptRef']} />
        </div>
        <div>
          <Label htmlFor={ids.file}>Receipt document</Label>
          <input
            id={ids.file}
            type="file"
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (file) props.onFile(file)
            }}
            disabled={hashing}
            aria-describedby={`${ids.file}-hint`}
            className="block w-full text-sm text-stone-700 file:mr-3 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-stone-800 hover:file:bg-stone-100"
          />
          <p id={`${ids.file}-hint`} className="mt-1 text-xs text-stone-500" aria-live="polite">
            {hashing
              ? 'Computing SHA-256…'
              : documentName
                ? `SHA-256 of ${documentName} filled in.`
                : 'Choose the PDF or scan; its SHA-256 is computed here.'}
          </p>
        </div>
        <div>
          <Label htmlFor={ids.sha}>Receipt document SHA-256</Label>
          <Input
            id={ids.sha}
            name="documentSha256"
            value={props.documentSha256}
            onChange={(e) => {
              props.onShaTyped()
              onChange('documentSha256', e.target.value)
            }}
            placeholder="64 hex characters, or choose the file"
            autoComplete="off"
            spellCheck={false}
            className="font-mono text-xs"
            aria-invalid={errors['vaultProof.documentSha256'] ? true : undefined}
            aria-describedby={describedBy(errors, { errorId: `${ids.sha}-error`, path: 'vaultProof.documentSha256' })}
          />
          <FieldError id={`${ids.sha}-error`} message={errors['vaultProof.documentSha256']} />
        </div>
      </CardContent>
    </Card>
  )
}
