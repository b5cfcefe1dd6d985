import { usePageContext } from 'vike-react/usePageContext'
import { cx } from '../../lib/cx'

export type PictureProps = {
  /** The path the content names the picture with (`/images/team/anna.jpg`, or an SVG's). */
  src: string
  /** Alternative text; empty for a decorative picture. */
  alt: string
  /** Width and height an SVG is laid out with; a photo has its own. */
  width: number
  height: number
  /** The `sizes` of the photo's `srcset`: how wide it is shown at each screen width. */
  sizes: string
  /**
   * `high`: the largest picture in the first screen (loaded first); `eager`: in the first
   * screen; `lazy` (the default): further down, loaded as the visitor scrolls near it.
   */
  priority?: 'high' | 'eager' | 'lazy'
  /** Classes of the picture's box (size, shape, fit). */
  className?: string
}

/**
 * A content picture. A photo encoded by sitegen (pageContext.pictures) becomes a `<picture>` with
 * AVIF and WebP sources, a fallback `srcset`, its own width and height (no layout shift) and a
 * tiny blurred preview behind it while it loads; an SVG is an `<img>` as it is.
 */
export function Picture({ src, alt, width, height, sizes, priority = 'lazy', className }: PictureProps) {
  const picture = usePageContext().pictures?.[src]
  const loading = priority === 'lazy' ? 'lazy' : undefined
  const fetchPriority = priority === 'high' ? 'high' : undefined
  if (!picture) {
    return (
      <img
        src={src}
        alt={alt}
        width={width}
        height={height}
        loading={loading}
        fetchPriority={fetchPriority}
        decoding="async"
        className={className}
      />
    )
  }
  return (
    <span className={cx('relative block overflow-hidden', className)}>
      {picture.placeholder && (
        <img
          src={picture.placeholder}
          alt=""
          aria-hidden="true"
          className="absolute inset-0 size-full scale-110 object-cover blur-lg"
        />
      )}
      <picture>
        {picture.sources.map((source) => (
          <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
        ))}
        <img
          src={picture.src}
          srcSet={picture.srcset}
          sizes={sizes}
          alt={alt}
          width={picture.width}
          height={picture.height}
          loading={loading}
          fetchPriority={fetchPriority}
          decoding="async"
          className="relative size-full object-cover"
        />
      </picture>
    </span>
  )
}
