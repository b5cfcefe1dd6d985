// Content icons, resolved at build time: each page's data names icons (`icon` fields), and only
// those icons' drawings travel with the page (`pageContext.icons`, see pages/+onBeforeRender.ts),
// so no page bundles the whole icon set. Server-only: lucide-react stays an external package here.
import type { LucideIconData } from 'lucide-react'
import type { IconName } from 'lucide-react/dynamic'
import dynamicIconImports from 'lucide-react/dynamicIconImports'
import { brandMarks } from '../components/icons/brandMarks'
import type { Icon } from '../schema/Icon'

/** The drawings of the icons one page renders, by content icon name. */
export type PageIcons = Partial<Record<Icon, LucideIconData>>

type Glyph = { lucide: IconName } | { brand: keyof typeof brandMarks }

// Every icon name content may use, mapped to its drawing. The Record is exhaustive: a new name in
// the content schema fails the type check until it is mapped here (a lucide icon for generic
// icons, a brand mark from brandMarks.ts otherwise).
const glyphs: Record<Icon, Glyph> = {
  linkedin: { brand: 'linkedin' },
  twitter: { brand: 'twitter' },
  github: { brand: 'github' },
  'chart-column': { lucide: 'chart-column' },
  brain: { lucide: 'brain' },
  cloud: { lucide: 'cloud' },
  code: { lucide: 'code' },
  database: { lucide: 'database' },
  shield: { lucide: 'shield' },
  zap: { lucide: 'zap' },
  users: { lucide: 'users' },
  headphones: { lucide: 'headphones' },
  globe: { lucide: 'globe' },
  'trending-up': { lucide: 'trending-up' },
  cog: { lucide: 'cog' },
  'heart-pulse': { lucide: 'heart-pulse' },
  landmark: { lucide: 'landmark' },
  'shopping-cart': { lucide: 'shopping-cart' },
  factory: { lucide: 'factory' },
  'graduation-cap': { lucide: 'graduation-cap' },
  car: { lucide: 'car' },
  truck: { lucide: 'truck' },
  building: { lucide: 'building' },
  smartphone: { lucide: 'smartphone' },
  monitor: { lucide: 'monitor' },
  cpu: { lucide: 'cpu' },
  link: { lucide: 'link' },
  eye: { lucide: 'eye' },
  'message-square': { lucide: 'message-square' },
  'git-branch': { lucide: 'git-branch' },
  lock: { lucide: 'lock' },
  'file-text': { lucide: 'file-text' },
  'book-open': { lucide: 'book-open' },
  'list-checks': { lucide: 'list-checks' },
  video: { lucide: 'video' },
  target: { lucide: 'target' },
  rocket: { lucide: 'rocket' },
  layers: { lucide: 'layers' },
  server: { lucide: 'server' },
  search: { lucide: 'search' },
  award: { lucide: 'award' },
  lightbulb: { lucide: 'lightbulb' },
  mail: { lucide: 'mail' },
  phone: { lucide: 'phone' },
  'map-pin': { lucide: 'map-pin' },
  clock: { lucide: 'clock' },
  'circle-check': { lucide: 'circle-check' },
  sparkles: { lucide: 'sparkles' },
  workflow: { lucide: 'workflow' },
  'flask-conical': { lucide: 'flask-conical' },
  'refresh-cw': { lucide: 'refresh-cw' },
}

function isIcon(value: unknown): value is Icon {
  return typeof value === 'string' && Object.hasOwn(glyphs, value)
}

/** The drawing of one content icon. */
export async function iconData(icon: Icon): Promise<LucideIconData> {
  const glyph = glyphs[icon]
  if ('brand' in glyph) {
    return {
      name: icon,
      size: 24,
      node: [['path', { d: brandMarks[glyph.brand], fill: 'currentColor', stroke: 'none', key: 'mark' }]],
    }
  }
  const { __iconData } = await dynamicIconImports[glyph.lucide]()
  if (!__iconData) throw new Error(`lucide-react has no drawing for the icon "${glyph.lucide}"`)
  return __iconData
}

/** Every content icon named by an `icon` field anywhere in `data`, with its drawing. */
export async function iconsIn(data: unknown): Promise<PageIcons> {
  const names = new Set<Icon>()
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      value.forEach(visit)
    } else if (value !== null && typeof value === 'object') {
      for (const [key, field] of Object.entries(value)) {
        if (key === 'icon' && isIcon(field)) names.add(field)
        else visit(field)
      }
    }
  }
  visit(data)
  const icons: PageIcons = {}
  for (const name of [...names].sort()) icons[name] = await iconData(name)
  return icons
}
