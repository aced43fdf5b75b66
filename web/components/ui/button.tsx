import { type ComponentProps, forwardRef } from 'react';
import { Link, type LinkProps } from 'react-router-dom';

type ButtonVariant = 'cta' | 'brand' | 'outline' | 'ghost' | 'light';
type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap transition-colors focus-visible:outline-3 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  cta: 'bg-cta text-white shadow-sm hover:bg-cta-dark',
  brand: 'bg-brand text-white shadow-sm hover:bg-brand-dark',
  outline: 'border border-slate-300 bg-white text-slate-900 hover:border-brand hover:text-brand',
  ghost: 'text-slate-700 hover:bg-slate-100 hover:text-brand',
  light: 'bg-white text-brand shadow-sm hover:bg-brand-light',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-9 px-3 text-sm',
  md: 'h-11 px-5 text-sm',
  lg: 'h-12 px-6 text-base',
};

export function buttonClasses(variant: ButtonVariant = 'brand', size: ButtonSize = 'md', extra = ''): string {
  return `${base} ${variants[variant]} ${sizes[size]} ${extra}`.trim();
}

type ButtonProps = ComponentProps<'button'> & { variant?: ButtonVariant; size?: ButtonSize };

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, className = '', type = 'button', ...props },
  ref,
) {
  return <button ref={ref} type={type} className={buttonClasses(variant, size, className)} {...props} />;
});

type ButtonLinkProps = LinkProps & { variant?: ButtonVariant; size?: ButtonSize };

/** A link styled as a button (navigation stays a link for assistive technology). */
export function ButtonLink({ variant, size, className = '', ...props }: ButtonLinkProps) {
  return <Link className={buttonClasses(variant, size, className)} {...props} />;
}
