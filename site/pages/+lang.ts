import { settings } from '../lib/settings'

// `<html lang>` from the content settings.
export default () => settings.language
