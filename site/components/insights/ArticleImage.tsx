import { Picture } from '../ui/Picture'

/** An article's 16:9 illustration, below the fold on every page that lists articles. */
export function ArticleImage({ src, alt }: { src: string; alt: string }) {
  return (
    <Picture
      src={src}
      alt={alt}
      width={640}
      height={360}
      sizes="(min-width: 1024px) 37rem, (min-width: 640px) 50vw, 100vw"
      className="aspect-video w-full bg-brand-900 object-cover"
    />
  )
}
