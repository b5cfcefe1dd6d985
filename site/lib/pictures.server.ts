// The encoded photos a page shows: sitegen's images stage describes each raster picture the
// content names (content.images, by the path the content writes); a page's data names some of
// them, and only those travel with the page (`pageContext.pictures`, see pages/+onBeforeRender.ts)
// for components/ui/Picture.tsx to render. They are part of what a page renders, so
// render/entry.server.ts hashes them with its data.
import type { Picture } from '../schema/Picture'
import { loadContent } from './content.server'

/** The encoded pictures of one page, by the path the content names each with. */
export type PagePictures = Record<string, Picture>

// What the paths of a content's pictures look like: their first characters and the longest's
// length. Most strings of a page (titles, excerpts, digests) fail these tests, and so are never
// hashed to be looked up among the pictures: that lookup was two thirds of picturesIn's time.
let shapes: { images: object; firsts: Set<number>; longest: number } | undefined

function shapesOf(images: Record<string, Picture>) {
  if (shapes?.images !== images) {
    const paths = Object.keys(images)
    shapes = {
      images,
      firsts: new Set(paths.map((path) => path.charCodeAt(0))),
      longest: paths.reduce((longest, path) => Math.max(longest, path.length), 0),
    }
  }
  return shapes
}

/** Every encoded picture whose path is a string anywhere in `data`. */
export function picturesIn(data: unknown): PagePictures {
  const images = loadContent().images
  const { firsts, longest } = shapesOf(images)
  const pictures: PagePictures = {}
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      if (value.length > longest || !firsts.has(value.charCodeAt(0))) return
      const picture = images[value]
      if (picture) pictures[value] = picture
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item)
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) visit((value as Record<string, unknown>)[key])
    }
  }
  visit(data)
  return pictures
}
