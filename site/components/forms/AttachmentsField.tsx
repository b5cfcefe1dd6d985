import X from 'lucide-react/icons/x'
import { type ChangeEvent, useEffect, useRef, useState } from 'react'
import type { AttachmentsField as AttachmentsWords } from '../../schema/AttachmentsField'
import type { FormMessages } from '../../schema/FormMessages'
import { ATTACHMENTS, type Refused, addFiles, fillHint, formatSize } from './attachments'
import { cx } from '../../lib/cx'
import { controlClasses } from './fieldStyles'

export type AttachmentsFieldProps = {
  /** Id of the file input. */
  id: string
  words: AttachmentsWords
  messages: FormMessages
  /** The service's words for the field, when it refused the files. */
  error?: string | undefined
  /** How much of the files went out (0 to 1) while they are sent, else null. */
  progress: number | null
}

/**
 * The contact form's optional files: a real `<input type="file" multiple>`, so a form sent
 * without script carries them. With script, each chosen file is listed with its size and can
 * be removed, more can be added, and a file the contract refuses (kind, size, count, total) is
 * refused at once with the words content gives its reason. The input always holds the listed
 * files, so the form's data is what the visitor sees.
 */
export function AttachmentsField({ id, words, messages, error, progress }: AttachmentsFieldProps) {
  const input = useRef<HTMLInputElement>(null)
  const [files, setFiles] = useState<File[]>([])
  const [refused, setRefused] = useState<Refused[]>([])
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const listId = `${id}-chosen`

  useEffect(() => {
    const element = input.current
    if (!element) return
    // Files chosen before the island woke up.
    if (element.files?.length) setFiles(Array.from(element.files))
    const form = element.form
    const reset = () => {
      setFiles([])
      setRefused([])
    }
    form?.addEventListener('reset', reset)
    return () => form?.removeEventListener('reset', reset)
  }, [])

  function keep(next: File[]) {
    const element = input.current
    if (element) {
      const transfer = new DataTransfer()
      for (const file of next) transfer.items.add(file)
      element.files = transfer.files
    }
    setFiles(next)
  }

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const added = Array.from(event.currentTarget.files ?? [])
    const result = addFiles(files, added)
    setRefused(result.refused)
    keep(result.files)
  }

  const problems = [
    ...refused.map(({ name, code }) => `${name}: ${messages.errors[code] ?? messages.invalid}`),
    ...(error ? [error] : []),
  ]
  const describedBy = [hintId, problems.length > 0 ? errorId : null].filter(Boolean).join(' ')
  return (
    <div className="flex flex-col gap-1.5 sm:col-span-2">
      <label htmlFor={id} className="text-sm font-medium text-ink-800">
        {words.label}
        <span className="ml-1 font-normal text-ink-600">{messages.optional}</span>
      </label>
      <p id={hintId} className="text-sm text-ink-600">
        {fillHint(words.hint)}
      </p>
      {/* The browser's own file input names its button and its empty state in the browser's
          language. Where script runs, the input is laid, transparent, over a face that says
          them in the page's; it stays the control a click, a key or a screen reader reaches.
          Without script the input shows as it is, for the face could not say what it holds. */}
      <div className="relative">
        <input
          ref={input}
          id={id}
          type="file"
          name={ATTACHMENTS.name}
          multiple
          accept={ATTACHMENTS.accept}
          aria-describedby={describedBy}
          aria-invalid={problems.length > 0 || undefined}
          onChange={onChange}
          className={controlClasses(
            cx(
              'peer file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-brand-800',
              // Written out whole, for Tailwind finds classes by their text.
              '[@media(scripting:enabled)]:absolute [@media(scripting:enabled)]:inset-0 [@media(scripting:enabled)]:cursor-pointer [@media(scripting:enabled)]:opacity-0',
            ),
          )}
        />
        <div
          aria-hidden="true"
          data-file-face
          className={controlClasses(
            cx(
              'items-center gap-3',
              'peer-focus-visible:border-brand-600 peer-focus-visible:ring-3 peer-focus-visible:ring-brand-600/25',
              'peer-aria-invalid:border-danger-700',
            ),
            'hidden [@media(scripting:enabled)]:flex',
          )}
        >
          <span className="rounded-md bg-brand-50 px-3 py-1.5 text-sm font-medium text-brand-800">{words.choose}</span>
          <span className="min-w-0 truncate text-sm text-ink-700">
            {files.length === 0 ? words.none_chosen : files.map((file) => file.name).join(', ')}
          </span>
        </div>
      </div>
      {files.length > 0 && (
        <div className="flex flex-col gap-1">
          <p id={listId} className="text-sm font-medium text-ink-800">
            {words.chosen}
          </p>
          <ul aria-labelledby={listId} className="flex flex-col gap-1">
            {files.map((file, index) => (
              <li
                key={`${file.name}-${file.size}-${file.lastModified}`}
                className="flex items-center justify-between gap-3 rounded-lg border border-ink-200 bg-ink-50 px-3 py-1.5 text-sm text-ink-800"
              >
                <span className="min-w-0 truncate">{file.name}</span>
                <span className="ml-auto shrink-0 text-ink-600">{formatSize(file.size)}</span>
                <button
                  type="button"
                  onClick={() => keep(files.filter((_, i) => i !== index))}
                  aria-label={words.remove.replaceAll('{name}', file.name)}
                  className="shrink-0 rounded-md p-1 text-ink-600 hover:bg-ink-100 hover:text-ink-900 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  <X aria-hidden="true" className="size-4" />
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {problems.length > 0 && (
        <div id={errorId} role="alert" className="flex flex-col text-sm text-danger-700">
          {problems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </div>
      )}
      {progress !== null && (
        <progress value={progress} max={1} aria-label={words.progress} className="h-2 w-full accent-brand-600" />
      )}
    </div>
  )
}
