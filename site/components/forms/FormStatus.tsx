/**
 * A live region inside the form: when the service rejects fields, screen readers hear the
 * notice at once, and everyone sees it next to the submit button.
 */
export function FormStatus({ id, message }: { id: string; message: string | null }) {
  return (
    <p id={id} aria-live="assertive" aria-atomic="true" className="text-sm font-medium text-danger-700">
      {message ?? ''}
    </p>
  )
}
