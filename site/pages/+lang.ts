import { siteSettings } from '../lib/settings'

// `<html lang>` from the content settings.
export default () => siteSettings().language
