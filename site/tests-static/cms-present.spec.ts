import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { parse } from 'yaml'
import {
  articleFolders,
  type EditorConfig,
  fileEntry,
  presentFile,
  shownArticlePath,
  sourcePath,
} from '../admin/present'

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
