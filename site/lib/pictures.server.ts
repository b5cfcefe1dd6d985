// The encoded photos a page shows: sitegen's images stage describes each raster picture the
// content names (content.images, by the path the content writes); a page's data names some of
// them, and only those travel with the page (`pageContext.pictures`, see pages/+onBeforeRender.ts)
// for components/ui/Picture.tsx to render. They are part of what a page renders, so
// render/entry.server.ts hashes them with its data.
import type { Picture } from '../schema/Picture'
import { loadContent } from './content.server'

/** The encoded pictures of one page, by the path the content names each with. */
export type PagePictures = Record<string, Picture>

/** Every encoded picture whose path is a string anywhere in `data`. */
export function picturesIn(data: unknown): PagePictures {
  const images = loadContent().images
  const pictures: PagePictures = {}
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      const picture = images[value]
      if (picture) pictures[value] = picture
    } else if (Array.isArray(value)) {
      value.forEach(visit)
    } else if (value !== null && typeof value === 'object') {
      Object.values(value).forEach(visit)
    }
  }
  visit(data)
  return pictures
}
