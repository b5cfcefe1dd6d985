import { siteSettings } from '../lib/settings'

// `<html dir>`: the direction of the language of the content being rendered (`<html lang>` is
// +lang.ts).
export default () => {
  const settings = siteSettings()
  const language = settings.languages.find((l) => l.tag === settings.language)
  return { dir: language?.direction ?? 'ltr' }
}
