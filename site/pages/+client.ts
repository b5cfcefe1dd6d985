// The only script every page loads: it binds the enhancements the page's HTML names (menus,
// typing headline, scroll reveal, form islands), then marks the document `html[data-hydrated]`.
// Styles rely on nothing from it (content is visible without JavaScript); browser tests wait
// for the mark before using the widgets. Pages are HTML-only: no framework runs here.
import { bindAll } from '../enhance/bindAll'

void bindAll().then(() => {
  document.documentElement.dataset.hydrated = 'true'
})
