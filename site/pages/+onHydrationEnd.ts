// Marks the document once React has hydrated: `html[data-hydrated]`. Styles can rely on it to
// hide content only when script will reveal it (content stays visible without JavaScript), and
// browser tests wait for it before interacting with widgets.
export default function onHydrationEnd() {
  document.documentElement.dataset.hydrated = 'true'
}
