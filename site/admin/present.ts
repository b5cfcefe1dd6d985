// How the live editor is shown the repository's files: the browser-side twin of what
// `sitegen dev` answers the editor (sitegen/src/cms/local.rs), so that Decap's GitHub backend
// opens the project's own layout (admin/sitegenGithub.ts):
//
// - an article's source `SLUG.md` is the default language's `SLUG.en.md` (Decap's
//   `multiple_files` layout names every language);
// - a page's `about.yaml` and `about.et.yaml` are one document `{en: …, et: …}` (Decap's only
//   layout for a translated file entry);
// - a map of the model is the list of entries the generated configuration lays it out as, a
//   file that is a map or a list one field `_entries`.
//
// Rust is the definition; this is a second implementation, held equal to it on every file
// entry of the real content by tests-static/cms-present.spec.ts (against `sitegen cms
// present`). No Decap import here, so the test loads it directly.
import { parse } from 'yaml'

// The editor's names for what has no key in a file (sitegen/src/cms/fields.rs; the check
// above fails if they drift).
/** The one field of a file that is a map or a list (`fields::ROOT_MAP`). */
export const ROOT_MAP = '_entries'
/** The key of an entry of a map shown as a list (`fields::MAP_KEY`). */
export const MAP_KEY = '_key'
/** The value of an entry of a map of plain values (`fields::MAP_VALUE`). */
export const MAP_VALUE = '_value'

/** A field of the generated configuration, as far as the presentation reads it. */
export interface EditorField {
  name: string
  fields?: EditorField[]
  field?: EditorField
}

/** The generated configuration (`sitegen cms config`), as far as the presentation reads it. */
export interface EditorConfig {
  i18n: { locales: string[]; default_locale: string }
  collections: {
    name: string
    folder?: string
    files?: { name: string; file: string; fields: EditorField[] }[]
    i18n?: unknown
  }[]
}

/** A file entry of the configuration: its fields, and whether it is one `{en, et}` document. */
export interface FileEntry {
  collection: string
  name: string
  fields: EditorField[]
  translated: boolean
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonMap = { [key: string]: Json }

const isMap = (value: Json | undefined): value is JsonMap =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether the file `name` is a translation (`about.et.yaml`): its stem has a dot. */
export function isTranslation(name: string): boolean {
  const dot = name.lastIndexOf('.')
  return (dot < 0 ? name : name.slice(0, dot)).includes('.')
}

/** The translation of `path` into `tag`: `pages/about.yaml` -> `pages/about.et.yaml`. */
export function translationPath(path: string, tag: string): string {
  const dot = path.lastIndexOf('.')
  if (dot < 0 || path[dot - 1] === '/') return `${path}.${tag}`
  return `${path.slice(0, dot)}.${tag}${path.slice(dot)}`
}

/** The editor's path of an article file: `x.md` -> `x.en.md`; a translation is its own. */
export function shownArticlePath(path: string, defaultLocale: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1)
  return isTranslation(name) ? path : translationPath(path, defaultLocale)
}

/** The repository's path behind the editor's `path`: `x.en.md` -> `x.md`, others as they are. */
export function sourcePath(path: string, defaultLocale: string): string {
  const suffix = `.${defaultLocale}.md`
  return path.endsWith(suffix) ? `${path.slice(0, -suffix.length)}.md` : path
}

/** The file entry of the configuration at the repository path `path`, if it is one. */
export function fileEntry(config: EditorConfig, path: string): FileEntry | undefined {
  for (const collection of config.collections) {
    const file = collection.files?.find((f) => f.file === path)
    if (file) {
      return {
        collection: collection.name,
        name: file.name,
        fields: file.fields,
        translated: collection.i18n !== undefined && collection.i18n !== null,
      }
    }
  }
  return undefined
}

/** The article folders of the configuration (`content/articles`). */
export function articleFolders(config: EditorConfig): string[] {
  return config.collections.flatMap((c) => (c.folder === undefined ? [] : [c.folder]))
}

/** The files a file entry is read from: its own, then each translation's (by locale). */
export function entryFiles(config: EditorConfig, path: string, entry: FileEntry): [string, string][] {
  if (!entry.translated) return [[config.i18n.locales[0] ?? config.i18n.default_locale, path]]
  return config.i18n.locales.map((tag, i) => [tag, i === 0 ? path : translationPath(path, tag)])
}

/**
 * The document the editor is shown for the file entry at `path`, from the texts of its files
 * (`texts(file)`, `undefined` for a file that does not exist): local.rs's `present_file`.
 */
export function presentFile(
  config: EditorConfig,
  path: string,
  entry: FileEntry,
  texts: (file: string) => string | undefined,
): Json {
  const shown = (file: string): Json => {
    const text = texts(file)
    const value: Json = text === undefined ? {} : ((parse(text) ?? null) as Json)
    return present(value, entry.fields)
  }
  if (!entry.translated) return shown(path)
  return Object.fromEntries(entryFiles(config, path, entry).map(([tag, file]) => [tag, shown(file)]))
}

/**
 * Whether `value`, read at a file entry's path, is already the editor's document rather than
 * the project's file: what Decap itself commits to a pull request's branch before
 * `sitegen cms tidy` rewrites it (`{en, et}` of a translated entry, `_entries` of a map file).
 */
export function isEditorDocument(config: EditorConfig, entry: FileEntry, value: unknown): boolean {
  if (!isMap(value as Json)) return false
  const keys = Object.keys(value as JsonMap)
  if (entry.translated) return keys.length > 0 && keys.every((k) => config.i18n.locales.includes(k))
  return isRootMap(entry.fields) && keys.length === 1 && keys[0] === ROOT_MAP
}

const isRootMap = (fields: EditorField[]): fields is [EditorField] =>
  fields.length === 1 && fields[0]?.name === ROOT_MAP

/** `value` as the editor's `fields` show it: local.rs's `present`. */
export function present(value: Json, fields: EditorField[]): Json {
  if (isRootMap(fields)) return { [ROOT_MAP]: presentField(value, fields[0]) }
  return presentFields(value, fields)
}

function presentFields(value: Json, fields: EditorField[] | undefined): Json {
  if (!isMap(value)) return value
  const out: JsonMap = { ...value }
  for (const field of fields ?? []) {
    const inner = out[field.name]
    if (inner !== undefined) out[field.name] = presentField(inner, field)
  }
  return out
}

function presentField(value: Json, field: EditorField): Json {
  const fields = field.fields ?? []
  if (isMap(value) && fields[0]?.name === MAP_KEY) {
    const plain = fields[1]?.name === MAP_VALUE
    return Object.entries(value).map(([key, inner]) => {
      const entry: JsonMap = { [MAP_KEY]: key }
      if (plain) entry[MAP_VALUE] = inner
      else {
        const shown = presentFields(inner, fields.slice(1))
        if (isMap(shown)) Object.assign(entry, shown)
      }
      return entry
    })
  }
  if (Array.isArray(value)) {
    return value.map((item) => (field.field ? presentField(item, field.field) : presentFields(item, field.fields)))
  }
  if (isMap(value)) return presentFields(value, field.fields)
  return value
}
