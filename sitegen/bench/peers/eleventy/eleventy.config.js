// Eleventy's defaults, plus the two filters the layout needs.
const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })

export default function (eleventyConfig) {
  eleventyConfig.addFilter('longDate', (date) => dateFormat.format(date))
  eleventyConfig.addFilter('isoDate', (date) => date.toISOString().slice(0, 10))
  eleventyConfig.addFilter('readTime', (text) => Math.max(1, Math.round(text.split(/\s+/).length / 200)))
}
