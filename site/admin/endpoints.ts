// Where the dev server answers the editor's preview pane (lib/devPreview.ts), and where it asks
// sitegen dev in turn (`sitegen/src/cms/preview.rs`'s PREVIEW_URL; the preview's browser test
// fails when the two part). The proxy protocol's endpoint is not here: the editor's
// configuration names it (`backend.proxy_url`), and sitegen dev hands the dev server its URL.
export const PREVIEW_PATH = '/admin/preview'
