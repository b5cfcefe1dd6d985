// The live editor's backend (`sitegen-github` in the generated configuration): Decap's GitHub
// backend, reading the repository the way `sitegen dev` presents it (admin/present.ts), so that
// an article's `SLUG.md` opens as English, a page opens with its translation beside it and a
// map file as its list. What it writes goes through unchanged, in Decap's own layout, onto the
// pull request's branch, where CI's `sitegen cms tidy` turns it into the project's; reads of
// such a branch (the editorial workflow) find the entry in either layout.
//
// No Decap import here (admin/cms.ts registers it): the wrapper takes the GitHub backend it
// wraps, so a test can hand it a fake one.
import { parse } from 'yaml'
import {
  articleFolders,
  type EditorConfig,
  entryFiles,
  fileEntry,
  isEditorDocument,
  isTranslation,
  presentFile,
  shownArticlePath,
  sourcePath,
} from './present'

/** The backend's name in the configuration (`sitegen/src/cms/mod.rs`, `Backend::Github`). */
export const SITEGEN_GITHUB = 'sitegen-github'

/** An entry as a Decap backend answers it. */
export interface Entry {
  data: string
  file: { path: string; id?: string | null; [meta: string]: unknown }
}

/** A file a pull request's branch changes (`unpublishedEntry`'s `diffs`). */
export interface Diff {
  path: string
  id: string
  newFile: boolean
}

/** What this wrapper calls of Decap's GitHub backend (decap-cms-backend-github). */
export interface GithubBackend {
  entriesByFolder(folder: string, extension: string, depth: number): Promise<Entry[]>
  allEntriesByFolder(folder: string, extension: string, depth: number, pathRegex?: RegExp): Promise<Entry[]>
  entriesByFiles(files: { path: string; label?: string }[]): Promise<Entry[]>
  getEntry(path: string): Promise<Entry>
  traverseCursor?(cursor: unknown, action: string): Promise<{ entries: Entry[]; cursor: unknown }>
  unpublishedEntry(args: { id?: string; collection?: string; slug?: string }): Promise<{ diffs: Diff[] }>
  unpublishedEntryDataFile(collection: string, slug: string, path: string, id: string): Promise<string>
  getBranch(collection: string, slug: string): string
  api: { readFile(path: string, sha: string | null, options: { branch: string }): Promise<unknown> } | null
}

/**
 * `inner` reading the project's layout: the object Decap is given as the backend. Every method
 * not named here is `inner`'s own (sign-in, writes, pull requests, media).
 */
export function readThrough<B extends GithubBackend>(inner: B, config: EditorConfig): B {
  const defaultLocale = config.i18n.default_locale
  const folders = articleFolders(config)
  const inFolder = (path: string) => folders.some((f) => path.startsWith(`${f}/`))
  const isArticleSource = (path: string) =>
    inFolder(path) && path.endsWith('.md') && !isTranslation(path.slice(path.lastIndexOf('/') + 1))

  // Folder listings: each article's source under the default language's name, in place (the
  // array carries Decap's cursor as a symbol).
  const renamed = (entries: Entry[]): Entry[] => {
    for (const entry of entries) {
      if (isArticleSource(entry.file.path)) entry.file.path = shownArticlePath(entry.file.path, defaultLocale)
    }
    return entries
  }

  /**
   * The editor's text of the file entry at `path`, from its source's text and a reader of its
   * translations: the source as it is when Decap wrote it (a pull request's branch before tidy).
   */
  const presented = async (path: string, source: string, read: (file: string) => Promise<string | undefined>) => {
    const entry = fileEntry(config, path)
    if (!entry) return source
    if (isEditorDocument(config, entry, parse(source))) return source
    const texts = new Map<string, string | undefined>([[path, source === '' ? undefined : source]])
    for (const [, file] of entryFiles(config, path, entry)) {
      if (!texts.has(file)) texts.set(file, await read(file))
    }
    // JSON is YAML (1.2, which Decap's parser reads): no second serialiser to hold equal.
    return JSON.stringify(presentFile(config, path, entry, (file) => texts.get(file)), null, 2)
  }
  const onDefaultBranch = async (file: string) => {
    const { data } = await inner.getEntry(file)
    return data === '' ? undefined : data
  }

  const overrides: Partial<GithubBackend> = {
    entriesByFolder: async (folder, extension, depth) =>
      renamed(await inner.entriesByFolder(folder, extension, depth)),
    allEntriesByFolder: async (folder, extension, depth, pathRegex) =>
      renamed(await inner.allEntriesByFolder(folder, extension, depth, pathRegex)),
    async getEntry(path) {
      if (fileEntry(config, path)) {
        const { data, file } = await inner.getEntry(path)
        return { data: await presented(path, data, onDefaultBranch), file }
      }
      const source = sourcePath(path, defaultLocale)
      if (source === path) return inner.getEntry(path)
      const { data, file } = await inner.getEntry(source)
      return { data, file: { ...file, path } }
    },
    async entriesByFiles(files) {
      const entries = await inner.entriesByFiles(files)
      return Promise.all(
        entries.map(async (entry) => ({ ...entry, data: await presented(entry.file.path, entry.data, onDefaultBranch) })),
      )
    },
    async unpublishedEntry(args) {
      const entry = await inner.unpublishedEntry(args)
      return { ...entry, diffs: shownDiffs(config, entry.diffs, isArticleSource) }
    },
    async unpublishedEntryDataFile(collection, slug, path, id) {
      const branch = inner.getBranch(collection, slug)
      const onBranch = async (file: string) => {
        try {
          return (await inner.api!.readFile(file, null, { branch })) as string
        } catch {
          return undefined
        }
      }
      if (fileEntry(config, path)) return presented(path, (await onBranch(path)) ?? '', onBranch)
      const source = sourcePath(path, defaultLocale)
      // A known blob is read by its id whatever its path; else the name Decap wrote, then
      // the one tidy gave it.
      if (source === path || id) return inner.unpublishedEntryDataFile(collection, slug, path, id)
      const text = (await onBranch(path)) ?? (await onBranch(source))
      if (text === undefined) throw new Error(`${path}: neither it nor ${source} is on ${branch}`)
      return text
    },
  }
  if (inner.traverseCursor) {
    const traverse = inner.traverseCursor.bind(inner)
    overrides.traverseCursor = async (cursor, action) => {
      const page = await traverse(cursor, action)
      return { ...page, entries: renamed(page.entries) }
    }
  }
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (typeof key === 'string' && Object.hasOwn(overrides, key)) return overrides[key as keyof GithubBackend]
      const value: unknown = Reflect.get(target, key, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * A pull request's changed files as the editor expects them: an article's source under the
 * default language's name (its blob id kept), a file entry's translations folded into the one
 * document of its source (read by path, as it has no one blob).
 */
export function shownDiffs(config: EditorConfig, diffs: Diff[], isArticleSource: (path: string) => boolean): Diff[] {
  const defaultLocale = config.i18n.default_locale
  const shown: Diff[] = []
  for (const diff of diffs) {
    const entryPath = fileEntryOf(config, diff.path)
    if (entryPath !== undefined) {
      const known = shown.find((d) => d.path === entryPath)
      if (known) {
        known.id = ''
        known.newFile &&= diff.newFile
      } else shown.push({ path: entryPath, id: entryPath === diff.path ? diff.id : '', newFile: diff.newFile })
      continue
    }
    shown.push(isArticleSource(diff.path) ? { ...diff, path: shownArticlePath(diff.path, defaultLocale) } : diff)
  }
  return shown
}

/** The file entry whose document `path` is part of: itself, or the source of a translation. */
function fileEntryOf(config: EditorConfig, path: string): string | undefined {
  if (fileEntry(config, path)) return path
  return config.i18n.locales
    .slice(1)
    .flatMap((tag) => {
      const suffix = `.${tag}${path.slice(path.lastIndexOf('.'))}`
      if (!path.endsWith(suffix)) return []
      const source = `${path.slice(0, -suffix.length)}${path.slice(path.lastIndexOf('.'))}`
      return fileEntry(config, source)?.translated ? [source] : []
    })
    .at(0)
}
