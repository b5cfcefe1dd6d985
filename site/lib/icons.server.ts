// Content icons, resolved at build time: each page's data names icons (`icon` fields), and only
// those icons' drawings travel with the page (`pageContext.icons`, see pages/+onBeforeRender.ts),
// so no page bundles the whole icon set. Server-only: the server bundle holds the drawings of the
// icons mapped below and no others, so a render worker loads no icon module of its own.
import type { LucideIcon, LucideIconData } from 'lucide-react'
import * as award from 'lucide-react/icons/award'
import * as bookOpen from 'lucide-react/icons/book-open'
import * as brain from 'lucide-react/icons/brain'
import * as building from 'lucide-react/icons/building'
import * as car from 'lucide-react/icons/car'
import * as chartColumn from 'lucide-react/icons/chart-column'
import * as circleCheck from 'lucide-react/icons/circle-check'
import * as clock from 'lucide-react/icons/clock'
import * as cloud from 'lucide-react/icons/cloud'
import * as code from 'lucide-react/icons/code'
import * as cog from 'lucide-react/icons/cog'
import * as cpu from 'lucide-react/icons/cpu'
import * as database from 'lucide-react/icons/database'
import * as eye from 'lucide-react/icons/eye'
import * as factory from 'lucide-react/icons/factory'
import * as fileText from 'lucide-react/icons/file-text'
import * as flaskConical from 'lucide-react/icons/flask-conical'
import * as gitBranch from 'lucide-react/icons/git-branch'
import * as globe from 'lucide-react/icons/globe'
import * as graduationCap from 'lucide-react/icons/graduation-cap'
import * as headphones from 'lucide-react/icons/headphones'
import * as heartPulse from 'lucide-react/icons/heart-pulse'
import * as landmark from 'lucide-react/icons/landmark'
import * as layers from 'lucide-react/icons/layers'
import * as lightbulb from 'lucide-react/icons/lightbulb'
import * as link from 'lucide-react/icons/link'
import * as listChecks from 'lucide-react/icons/list-checks'
import * as lock from 'lucide-react/icons/lock'
import * as mail from 'lucide-react/icons/mail'
import * as mapPin from 'lucide-react/icons/map-pin'
import * as messageSquare from 'lucide-react/icons/message-square'
import * as monitor from 'lucide-react/icons/monitor'
import * as phone from 'lucide-react/icons/phone'
import * as refreshCw from 'lucide-react/icons/refresh-cw'
import * as rocket from 'lucide-react/icons/rocket'
import * as search from 'lucide-react/icons/search'
import * as server from 'lucide-react/icons/server'
import * as shield from 'lucide-react/icons/shield'
import * as shoppingCart from 'lucide-react/icons/shopping-cart'
import * as smartphone from 'lucide-react/icons/smartphone'
import * as sparkles from 'lucide-react/icons/sparkles'
import * as target from 'lucide-react/icons/target'
import * as trendingUp from 'lucide-react/icons/trending-up'
import * as truck from 'lucide-react/icons/truck'
import * as users from 'lucide-react/icons/users'
import * as video from 'lucide-react/icons/video'
import * as workflow from 'lucide-react/icons/workflow'
import * as zap from 'lucide-react/icons/zap'
import { brandMarks } from '../components/icons/brandMarks'
import type { Icon } from '../schema/Icon'

/** The drawings of the icons one page renders, by content icon name. */
export type PageIcons = Partial<Record<Icon, LucideIconData>>

/** An icon's module in lucide-react: its component, and beside it the drawing it is made from. */
type LucideModule = { default: LucideIcon }

type Glyph = { lucide: LucideModule } | { brand: keyof typeof brandMarks }

// Every icon name content may use, mapped to its drawing. The Record is exhaustive: a new name in
// the content schema fails the type check until it is mapped here (a lucide icon, imported above,
// for generic icons, a brand mark from brandMarks.ts otherwise).
const glyphs: Record<Icon, Glyph> = {
  linkedin: { brand: 'linkedin' },
  twitter: { brand: 'twitter' },
  github: { brand: 'github' },
  'chart-column': { lucide: chartColumn },
  brain: { lucide: brain },
  cloud: { lucide: cloud },
  code: { lucide: code },
  database: { lucide: database },
  shield: { lucide: shield },
  zap: { lucide: zap },
  users: { lucide: users },
  headphones: { lucide: headphones },
  globe: { lucide: globe },
  'trending-up': { lucide: trendingUp },
  cog: { lucide: cog },
  'heart-pulse': { lucide: heartPulse },
  landmark: { lucide: landmark },
  'shopping-cart': { lucide: shoppingCart },
  factory: { lucide: factory },
  'graduation-cap': { lucide: graduationCap },
  car: { lucide: car },
  truck: { lucide: truck },
  building: { lucide: building },
  smartphone: { lucide: smartphone },
  monitor: { lucide: monitor },
  cpu: { lucide: cpu },
  link: { lucide: link },
  eye: { lucide: eye },
  'message-square': { lucide: messageSquare },
  'git-branch': { lucide: gitBranch },
  lock: { lucide: lock },
  'file-text': { lucide: fileText },
  'book-open': { lucide: bookOpen },
  'list-checks': { lucide: listChecks },
  video: { lucide: video },
  target: { lucide: target },
  rocket: { lucide: rocket },
  layers: { lucide: layers },
  server: { lucide: server },
  search: { lucide: search },
  award: { lucide: award },
  lightbulb: { lucide: lightbulb },
  mail: { lucide: mail },
  phone: { lucide: phone },
  'map-pin': { lucide: mapPin },
  clock: { lucide: clock },
  'circle-check': { lucide: circleCheck },
  sparkles: { lucide: sparkles },
  workflow: { lucide: workflow },
  'flask-conical': { lucide: flaskConical },
  'refresh-cw': { lucide: refreshCw },
}

function isIcon(value: unknown): value is Icon {
  return typeof value === 'string' && Object.hasOwn(glyphs, value)
}

/** The drawing of one content icon. */
function iconData(icon: Icon): LucideIconData {
  const glyph = glyphs[icon]
  if ('brand' in glyph) {
    return {
      name: icon,
      size: 24,
      node: [['path', { d: brandMarks[glyph.brand], fill: 'currentColor', stroke: 'none', key: 'mark' }]],
    }
  }
  // lucide-react's icon modules export the drawing their component is made from, untyped.
  const { __iconData } = glyph.lucide as LucideModule & { __iconData?: LucideIconData }
  if (!__iconData) throw new Error(`lucide-react has no drawing for the icon "${icon}"`)
  return __iconData
}

/** Every content icon named by an `icon` field anywhere in `data`, with its drawing. */
export function iconsIn(data: unknown): PageIcons {
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
  for (const name of [...names].sort()) icons[name] = iconData(name)
  return icons
}
