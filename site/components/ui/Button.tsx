import type { ButtonHTMLAttributes } from 'react'
import { type ButtonSize, type ButtonVariant, buttonClasses } from './buttonStyles'

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant
  size?: ButtonSize
}

/** A `<button>` in the site's button style (type="button" unless given, e.g. "submit"). */
export function Button({ variant = 'primary', size = 'md', className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...rest} />
}
