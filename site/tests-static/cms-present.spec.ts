import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { parse } from 'yaml'
import {
  articleFolders,
  type EditorConfig,
  fileEntry,
  isTranslation,
  presentFile,
  shownArticlePath,
  sourcePath,
  translationPath,
} from '../admin/present'
import { type GithubBackend, readThrough, SITEGEN_GITHUB } from '../admin/sitegenGithub'

// The live editor reads the repository through GitHub and shows it the way `sitegen dev`
// does (admin/present.ts); the Rust answer (sitegen/src/cms/local.rs, printed by the hidden
// `sitegen cms present`) is the definition. Here both read the real content/: every file entry
// of the generated configuration, and every article's path, must come out the same.

const repo = path.resolve(import.meta.dirname, '../..')
const contentDir = path.join(repo, 'content')
const bin = process.env.SITEGEN_BIN || path.join(repo, 'target/debug/sitegen')

function sitegen(...args: string[]): string {
  return execFileSync(bin, [...args, '--content', contentDir], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  })
}

interface Answer {
  data: string
  file: { path: string }
}

/** What `sitegen dev` answers each read request. */
function rustAnswers(requests: object[]): Answer[] {
  return JSON.parse(sitegen('cms', 'present', ...requests.map((r) => JSON.stringify(r)))) as Answer[]
}

const config = parse(sitegen('cms', 'config')) as EditorConfig
const defaultLocale = config.i18n.default_locale

/** A repository path's text (`content/pages/about.yaml`), `undefined` if there is no such file. */
function repoText(file: string): string | undefined {
  const full = path.join(repo, file)
  return existsSync(full) ? readFileSync(full, 'utf8') : undefined
}

test('the live configuration names the backend the editor registers', () => {
  // The content with `cms:` in its site.yaml, the rest linked.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sitegen-cms-present-'))
  try {
    for (const name of readdirSync(contentDir)) {
      if (name !== 'site.yaml') symlinkSync(path.join(contentDir, name), path.join(dir, name))
    }
    const site = readFileSync(path.join(contentDir, 'site.yaml'), 'utf8')
    writeFileSync(path.join(dir, 'site.yaml'), `${site}cms:\n  repo: nordvale/site\n  branch: main\n`)
    const live = parse(execFileSync(bin, ['cms', 'config', '--live', '--content', dir], { encoding: 'utf8' })) as {
      backend: { name: string }
    }
    expect(live.backend.name).toBe(SITEGEN_GITHUB)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('every file entry is presented to the editor as sitegen dev presents it', () => {
  const paths = config.collections.flatMap((c) => (c.files ?? []).map((f) => f.file))
  expect(paths.length).toBeGreaterThan(5)
  const answers = rustAnswers(paths.map((p) => ({ action: 'getEntry', params: { path: p } })))
  const translated = paths.filter((p) => fileEntry(config, p)?.translated)
  expect(translated.length, 'some file entries are translated').toBeGreaterThan(0)
  paths.forEach((file, i) => {
    const entry = fileEntry(config, file)
    expect(entry, file).toBeDefined()
    const ours = presentFile(config, file, entry!, repoText)
    expect(ours, file).toEqual(parse(answers[i]!.data))
  })
})

test("an article's source is the default language's file, a translation its own", () => {
  const [folder] = articleFolders(config)
  expect(folder).toBeDefined()
  const names = readdirSync(path.join(repo, folder!))
    .filter((n) => n.endsWith('.md'))
    .sort()
  const listed = rustAnswers([{ action: 'entriesByFolder', params: { folder } }])[0] as unknown as Answer[]
  expect(listed.map((a) => a.file.path)).toEqual(names.map((n) => shownArticlePath(`${folder}/${n}`, defaultLocale)))
  expect(listed.some((a) => a.file.path.endsWith(`.${defaultLocale}.md`))).toBe(true)
  // Opening an entry by the editor's path reads the file the mapping names.
  const shown = listed.map((a) => a.file.path)
  const opened = rustAnswers(shown.map((p) => ({ action: 'getEntry', params: { path: p } })))
  shown.forEach((p, i) => expect(opened[i]!.data, p).toBe(repoText(sourcePath(p, defaultLocale))))
})

// The live editor's backend (admin/sitegenGithub.ts) over a fake of Decap's GitHub backend that
// answers from the real content/: the default branch as the repository holds it, and a pull
// request's branch before and after `sitegen cms tidy`.

type Files = Map<string, string>

/** The repository's content files, by path (`content/pages/about.yaml`). */
function repoFiles(): Files {
  const files: Files = new Map()
  for (const entry of readdirSync(contentDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(ya?ml|md)$/.test(entry.name)) continue
    const full = path.join(entry.parentPath, entry.name)
    files.set(path.relative(repo, full), readFileSync(full, 'utf8'))
  }
  return files
}

/** Decap's GitHub backend over `main` and one pull request's `branch`; blob ids are `path@branch`. */
function fakeGithub(main: Files, branch: Files): GithubBackend {
  const entry = (files: Files, p: string) => ({ data: files.get(p) ?? '', file: { path: p, id: `${p}@main` } })
  const byBlob = (id: string) => {
    const [p, where] = id.split('@')
    const text = (where === 'main' ? main : branch).get(p!)
    if (text === undefined) throw new Error(`no blob ${id}`)
    return text
  }
  return {
    entriesByFolder: async (folder, extension) =>
      [...main.keys()].filter((p) => p.startsWith(`${folder}/`) && p.endsWith(`.${extension}`)).sort().map((p) => entry(main, p)),
    allEntriesByFolder(folder, extension, depth) {
      return this.entriesByFolder(folder, extension, depth)
    },
    entriesByFiles: async (files) => files.map((f) => entry(main, f.path)),
    getEntry: async (p) => entry(main, p),
    unpublishedEntry: async () => ({
      diffs: [...branch]
        .filter(([p, text]) => main.get(p) !== text)
        .map(([p]) => ({ path: p, id: `${p}@branch`, newFile: !main.has(p) })),
    }),
    unpublishedEntryDataFile: async (_collection, _slug, _path, id) => byBlob(id),
    getBranch: (collection, slug) => `cms/${collection}/${slug}`,
    api: {
      readFile: async (p) => {
        const text = branch.get(p)
        if (text === undefined) throw new Error(`${p}: not on the branch`)
        return text
      },
    },
  }
}

test('the live backend reads the default branch as sitegen dev presents it', async () => {
  const main = repoFiles()
  const backend = readThrough(fakeGithub(main, main), config)
  const [folder] = articleFolders(config)
  const listed = rustAnswers([{ action: 'entriesByFolder', params: { folder } }])[0] as unknown as Answer[]
  const ours = await backend.entriesByFolder(folder!, 'md', 1)
  expect(ours.map((e) => e.file.path)).toEqual(listed.map((a) => a.file.path))
  expect(ours.map((e) => e.data)).toEqual(listed.map((a) => a.data))
  const article = listed.find((a) => a.file.path.endsWith(`.${defaultLocale}.md`))!
  expect(await backend.getEntry(article.file.path)).toMatchObject({ data: article.data, file: { path: article.file.path } })

  const files = config.collections.flatMap((c) => (c.files ?? []).map((f) => ({ path: f.file, label: f.name })))
  const answers = rustAnswers(files.map((f) => ({ action: 'getEntry', params: { path: f.path } })))
  const opened = await backend.entriesByFiles(files)
  files.forEach((f, i) => expect(parse(opened[i]!.data), f.path).toEqual(parse(answers[i]!.data)))
  const about = files.findIndex((f) => fileEntry(config, f.path)?.translated)
  expect(parse((await backend.getEntry(files[about]!.path)).data)).toEqual(parse(answers[about]!.data))
})

test("a pull request's entry opens before and after tidy rewrote its branch", async () => {
  const main = repoFiles()
  const page = config.collections.flatMap((c) => (c.files ?? []).map((f) => f.file)).find((p) => fileEntry(config, p)?.translated)!
  const [tag] = config.i18n.locales.slice(1)
  const translation = translationPath(page, tag!)
  const [folder] = articleFolders(config)
  const article = [...main.keys()].find((p) => p.startsWith(`${folder}/`) && !isTranslation(path.basename(p)))!
  const shown = shownArticlePath(article, defaultLocale)

  // After tidy: the project's layout, the Estonian page and the English article edited.
  const tidied = new Map(main)
  tidied.set(translation, main.get(translation)!.replace(/^(\s*title: ).*$/m, '$1Muudetud pealkiri'))
  tidied.set(article, main.get(article)!.replace(/^title: .*$/m, 'title: An edited title'))
  let backend = readThrough(fakeGithub(main, tidied), config)
  const { diffs } = await backend.unpublishedEntry({ id: 'x' })
  const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path)
  expect([...diffs].sort(byPath)).toEqual(
    [
      { path: page, id: '', newFile: false },
      { path: shown, id: `${article}@branch`, newFile: false },
    ].sort(byPath),
  )
  const document = parse(await backend.unpublishedEntryDataFile('pages', 'about', page, '')) as Record<string, unknown>
  expect(Object.keys(document)).toEqual(config.i18n.locales)
  expect(JSON.stringify(document[tag!])).toContain('Muudetud pealkiri')
  expect(JSON.stringify(document[defaultLocale])).not.toContain('Muudetud pealkiri')
  expect(await backend.unpublishedEntryDataFile('articles', 'x', shown, `${article}@branch`)).toContain('title: An edited title')
  expect(await backend.unpublishedEntryDataFile('articles', 'x', shown, '')).toContain('title: An edited title')

  // Before tidy: Decap's own layout, read as Decap wrote it.
  const decap = new Map(main)
  const editorDocument = JSON.stringify({ ...document, [defaultLocale]: { title: 'Decap wrote this' } })
  decap.set(page, editorDocument)
  decap.set(shown, 'title: Decap wrote this article\n')
  backend = readThrough(fakeGithub(main, decap), config)
  const before = (await backend.unpublishedEntry({ id: 'x' })).diffs.map((d) => d.path).sort()
  expect(before).toEqual([page, shown].sort())
  expect(await backend.unpublishedEntryDataFile('pages', 'about', page, '')).toBe(editorDocument)
  expect(await backend.unpublishedEntryDataFile('articles', 'x', shown, '')).toBe('title: Decap wrote this article\n')
})
