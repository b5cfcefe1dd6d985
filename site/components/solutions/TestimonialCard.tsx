import Quote from 'lucide-react/icons/quote'
import Star from 'lucide-react/icons/star'
import type { Testimonial } from '../../schema/Testimonial'
import { cx } from '../../lib/cx'
import { Card } from '../ui/Card'

export type TestimonialCardProps = {
  testimonial: Testimonial
  /** Accessible name of the stars, with `{rating}` standing for the number of stars. */
  ratingLabel: string
}

const MAX_STARS = 5

/** A client's quote with its star rating and who said it. */
export function TestimonialCard({ testimonial, ratingLabel }: TestimonialCardProps) {
  const stars = Math.max(0, Math.min(MAX_STARS, testimonial.rating))
  return (
    <Card as="figure" on="dark" className="h-full gap-6 sm:p-8">
      <Quote aria-hidden="true" className="absolute top-6 right-6 size-10 text-brand-400/30 sm:top-8 sm:right-8" />
      <p role="img" aria-label={ratingLabel.replace('{rating}', String(stars))} className="flex gap-1">
        {Array.from({ length: MAX_STARS }, (_, i) => (
          <Star
            key={i}
            aria-hidden="true"
            className={cx('size-5', i < stars ? 'fill-warning-400 text-warning-400' : 'text-ink-600')}
          />
        ))}
      </p>
      <blockquote className="flex-1 text-pretty text-lg leading-relaxed text-ink-100">
        <p>{testimonial.quote}</p>
      </blockquote>
      <figcaption className="flex flex-col gap-0.5 border-t border-white/10 pt-5">
        <span className="font-semibold text-white">{testimonial.author}</span>
        <span className="text-sm text-ink-300">{testimonial.role}</span>
        <span className="text-sm font-medium text-brand-200">{testimonial.company}</span>
      </figcaption>
    </Card>
  )
}
