// A page a form post ends on: reachable by anyone, but not a page for search results.
export default function Head() {
  return <meta name="robots" content="noindex" />
}
