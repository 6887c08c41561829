import type { ComponentProps } from 'react';
import { Link } from '@/i18n/navigation';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'quiet';

/** The one button look of the shop, for <button>, <a> and locale links alike. */
export function buttonClass(variant: ButtonVariant = 'secondary', wide = false, extra?: string): string {
  return [styles.button, variant === 'primary' && styles.primary, variant === 'quiet' && styles.quiet, wide && styles.wide, extra].filter(Boolean).join(' ');
}

type Look = { variant?: ButtonVariant; wide?: boolean };

export function Button({ variant, wide, className, type = 'button', ...rest }: ComponentProps<'button'> & Look) {
  return <button type={type} className={buttonClass(variant, wide, className)} {...rest} />;
}

/** A link that looks like a button, staying in the visitor's language. */
export function ButtonLink({ variant, wide, className, ...rest }: ComponentProps<typeof Link> & Look) {
  return <Link className={buttonClass(variant, wide, className)} {...rest} />;
}
