/** The message under a field; its id goes in the field's aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null
  return (
    <p id={id} className="mt-1 text-xs text-red-700">
      {message}
    </p>
  )
}
