export type PublishingBannerProps = { text: string }

/**
 * The strip at the top of a page a preview build (or `sitegen dev`) shows though it is not
 * published: "Draft", "Scheduled for 9 December 2026, 09:00". The words come from sitegen
 * (`ui.draft`, `ui.scheduled` of site.yaml), in the page's language; a production build has
 * no such page.
 */
export function PublishingBanner({ text }: PublishingBannerProps) {
  return (
    <p
      role="note"
      data-publishing-banner=""
      className="border-b border-amber-300 bg-amber-100 px-4 py-2 text-center text-sm font-semibold text-amber-950"
    >
      {text}
    </p>
  )
}
