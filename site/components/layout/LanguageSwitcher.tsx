import type { Version } from '../../schema/Version'

export type LanguageSwitcherProps = {
  /** The page in every language of the site, from sitegen's table of versions. */
  languages: Version[]
  /** The switcher's accessible name (`Language`). */
  label: string
  /** What it says of a language the page is not published in. */
  notTranslated: string
  /** Classes of the landmark: where it shows (the header's shows on wide screens, the mobile menu's in the menu). */
  className?: string
}

/**
 * What the switcher shows of the page's versions: the current one without its path (this page's,
 * which it does not link), so that the pages of one language give the header the same languages
 * and share one rendering of it (lib/once.server.tsx).
 */
export function shownLanguages(versions: Version[]): Version[] {
  return versions.map(({ path, ...version }) => (version.current ? version : { ...version, path }))
}

/**
 * Links to this page in each other language, each named in its own language, so a reader
 * lands on the same page rather than on a home page. A language the page is not published
 * in is shown, not linked, with the reason.
 */
export function LanguageSwitcher({ languages, label, notTranslated, className }: LanguageSwitcherProps) {
  return (
    <nav aria-label={label} className={className}>
      <ul className="flex items-center gap-1 text-sm font-medium">
        {languages.map((language) => (
          <li key={language.tag}>
            {language.current ? (
              <span aria-current="page" lang={language.tag} className="rounded-full px-2.5 py-1.5 text-ink-900">
                {language.name}
              </span>
            ) : language.path ? (
              <a
                href={language.path}
                hrefLang={language.tag}
                lang={language.tag}
                className="rounded-full px-2.5 py-1.5 text-ink-600 transition-colors hover:bg-ink-100 hover:text-ink-900"
              >
                {language.name}
              </a>
            ) : (
              <span lang={language.tag} className="px-2.5 py-1.5 text-ink-500">
                {language.name} <span className="sr-only">({notTranslated})</span>
              </span>
            )}
          </li>
        ))}
      </ul>
    </nav>
  )
}
