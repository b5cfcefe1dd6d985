// lucide-react's `Icon` (an icon drawn from its node data) from its own module: the barrel
// (`lucide-react`) declares it, but importing the barrel in the dev server's SSR evaluates all of
// its ~1,600 icon modules. Components import each icon from `lucide-react/icons/NAME`, whose types
// the package ships; this one module has none of its own.
declare module 'lucide-react/dist/esm/Icon.mjs' {
  import type { Icon } from 'lucide-react'
  const LucideIcon: typeof Icon
  export default LucideIcon
}
