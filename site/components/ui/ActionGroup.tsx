import type { Action } from '../../schema/Action'
import { cx } from '../../lib/cx'
import { ActionLink } from './ActionLink'
import type { ButtonVariant } from './buttonStyles'

export type ActionGroupProps = {
  actions: Action[]
  size?: 'md' | 'lg'
  /** `light` on white/muted backgrounds; `dark` turns primary actions white for ink/brand sections. */
  on?: 'light' | 'dark'
  align?: 'left' | 'center'
  className?: string
}

function variantFor(action: Action, on: 'light' | 'dark'): ButtonVariant {
  if (action.style === 'primary') return on === 'light' ? 'primary' : 'inverse'
  return on === 'light' ? 'secondary' : 'inverse-outline'
}

/** The calls to action of a hero or section, from content (`{ label, href, style }`). */
export function ActionGroup({ actions, size = 'lg', on = 'light', align = 'left', className }: ActionGroupProps) {
  if (actions.length === 0) return null
  return (
    <div
      className={cx(
        // Stacked full-width buttons on phones, a row from 640 px.
        'flex flex-col gap-3 sm:flex-row sm:flex-wrap',
        align === 'center' && 'sm:justify-center',
        className,
      )}
    >
      {actions.map((action) => (
        <ActionLink
          key={`${action.href}|${action.label}`}
          href={action.href}
          size={size}
          className="w-full sm:w-auto"
          variant={variantFor(action, on)}
          arrow={action.style === 'primary'}
        >
          {action.label}
        </ActionLink>
      ))}
    </div>
  )
}
