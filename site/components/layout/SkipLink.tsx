export type SkipLinkProps = { targetId: string; label: string }

/** First focusable element: jumps keyboard users past the navigation to the main content. */
export function SkipLink({ targetId, label }: SkipLinkProps) {
  return (
    <a
      href={`#${targetId}`}
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[100] focus:rounded-full focus:bg-ink-950 focus:px-5 focus:py-3 focus:text-sm focus:font-semibold focus:text-white focus:shadow-elevated"
    >
      {label}
    </a>
  )
}
