import type { FormEvent, ReactNode } from 'react'

export type FormShellProps = {
  /** Id prefix of the form; the heading gets `${id}-title` and names the form. */
  id: string
  /** Where the form posts without script: the service's URL for this form. */
  action: string
  title: string
  lead?: string | null | undefined
  onSubmit: (event: FormEvent<HTMLFormElement>) => void
  onChange: (event: FormEvent<HTMLFormElement>) => void
  /** `multipart/form-data` for a form with a file field. */
  encType?: 'multipart/form-data'
  children: ReactNode
}

/**
 * The frame both contact forms share: a real `<form method="post">` aimed at the contact
 * service (so it works without script), named by its heading, with the heading and lead.
 */
export function FormShell({ id, action, title, lead, onSubmit, onChange, encType, children }: FormShellProps) {
  const headingId = `${id}-title`
  return (
    <form
      method="post"
      action={action}
      encType={encType}
      aria-labelledby={headingId}
      onSubmit={onSubmit}
      onChange={onChange}
      className="relative flex flex-col gap-6"
    >
      <div className="flex flex-col gap-2">
        <h2 id={headingId} className="text-subtitle text-ink-950">
          {title}
        </h2>
        {lead && <p className="text-ink-600">{lead}</p>}
      </div>
      {children}
    </form>
  )
}
