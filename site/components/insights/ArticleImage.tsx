/** An article's 16:9 illustration, below the fold on every page that lists articles. */
export function ArticleImage({ src, alt }: { src: string; alt: string }) {
  return (
    <img
      src={src}
      alt={alt}
      width={640}
      height={360}
      loading="lazy"
      decoding="async"
      className="aspect-video w-full bg-brand-900 object-cover"
    />
  )
}
