import type { ComponentProps } from 'react'
import { Input } from '@/components/ui/Input'
import { Label } from '@/components/ui/Label'

export type ControlFieldProps = Omit<ComponentProps<'input'>, 'id' | 'value' | 'onChange'> & {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  /** what is wrong with the value: shown under it and named by the input (aria-describedby) */
  issue: string | undefined
}

/** A labelled text field of the mint controls' forms, with its problem under it. */
export function ControlField({ id, label, value, onChange, issue, ...input }: ControlFieldProps) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={issue ? true : undefined}
        aria-describedby={issue ? `${id}-issue` : undefined}
        {...input}
      />
      {issue ? (
        <p id={`${id}-issue`} className="mt-1 text-xs text-red-700">
          {issue}
        </p>
      ) : null}
    </div>
  )
}
