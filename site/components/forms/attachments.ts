// The contact form's files, checked in the browser against the contract's limits and kinds of
// file before anything is sent (the contact service checks them again, from the bytes).
import type { ErrorCode } from '../../schema/ErrorCode'
import { contract } from '../../schema/contract'

export const ATTACHMENTS = contract.attachments

/** A size in bytes as people read it: `850 kB`, `10 MB` (1 MB = 1,048,576 bytes, as the contract counts). */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) {
    const mb = bytes / (1024 * 1024)
    return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
  }
  return `${Math.max(1, Math.round(bytes / 1024))} kB`
}

/** The hint's placeholders filled with the contract's limits. */
export function fillHint(hint: string): string {
  return hint
    .replaceAll('{files}', String(ATTACHMENTS.maxFiles))
    .replaceAll('{file_size}', formatSize(ATTACHMENTS.maxFileBytes))
    .replaceAll('{total_size}', formatSize(ATTACHMENTS.maxTotalBytes))
}

/** Whether the browser's idea of the file (its name's ending, its type) is one the form takes. */
function allowedKind(file: File): boolean {
  const ending = file.name.includes('.') ? (file.name.split('.').pop() ?? '').toLowerCase() : ''
  return ATTACHMENTS.types.some(
    (type) => (type.extensions as readonly string[]).includes(ending) || (ending === '' && type.mime === file.type),
  )
}

/** A file refused before sending, and why (the contract's error code). */
export type Refused = { name: string; code: ErrorCode }

/**
 * `chosen` with the files of `added` that fit: each of a kind the form takes, at most the
 * contract's size, count and total. The others are refused, each with its reason.
 */
export function addFiles(chosen: readonly File[], added: readonly File[]): { files: File[]; refused: Refused[] } {
  const files = [...chosen]
  const refused: Refused[] = []
  let total = files.reduce((sum, file) => sum + file.size, 0)
  for (const file of added) {
    let code: ErrorCode | null = null
    if (!allowedKind(file)) code = 'file_type'
    else if (file.size > ATTACHMENTS.maxFileBytes) code = 'file_too_large'
    else if (files.length >= ATTACHMENTS.maxFiles) code = 'too_many_files'
    else if (total + file.size > ATTACHMENTS.maxTotalBytes) code = 'files_too_large'
    if (code) {
      refused.push({ name: file.name, code })
    } else {
      files.push(file)
      total += file.size
    }
  }
  return { files, refused }
}
