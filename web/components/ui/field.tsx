import { type ComponentProps, createContext, type ReactNode, useContext } from 'react';

const inputClasses =
  'block w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2.5 text-base text-slate-900 shadow-xs placeholder:text-slate-500 transition-colors focus:border-brand focus:outline-2 focus:outline-offset-0 focus:outline-brand/30 aria-[invalid=true]:border-red-600 sm:text-sm';

interface FieldProps {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  children: ReactNode;
  className?: string;
}

/**
 * Whether a field's message announces itself (role="alert"). A form with an error summary provides
 * false: the summary is its one announcement, and each message stays its control's description.
 */
export const FieldErrorsAnnounced = createContext(true);

/** The role of a field's message under the form it is in. */
export function useFieldErrorRole(): 'alert' | undefined {
  return useContext(FieldErrorsAnnounced) ? 'alert' : undefined;
}

/** A label, a control and the message under it. The control gets `id`, `aria-invalid` and `aria-describedby` from `fieldAria`. */
export function Field({ id, label, error, hint, required, children, className = '' }: FieldProps) {
  const errorRole = useFieldErrorRole();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
        {required ? (
          <span className="text-red-700" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1.5 text-sm text-red-700" role={errorRole}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The accessibility attributes that tie a control to its Field. */
export function fieldAria(id: string, error: string | undefined, hint?: boolean) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy } as const;
}

export function Input(props: ComponentProps<'input'>) {
  return <input {...props} className={`${inputClasses} ${props.className ?? ''}`} />;
}

export function Textarea(props: ComponentProps<'textarea'>) {
  return <textarea {...props} className={`${inputClasses} min-h-28 ${props.className ?? ''}`} />;
}

export function Select(props: ComponentProps<'select'>) {
  return (
    <select
      {...props}
      className={`${inputClasses} appearance-none bg-[url("data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%2020%2020'%20fill='%23475569'%3E%3Cpath%20d='M5.2%207.2a.75.75%200%200%201%201.06.04L10%2011.1l3.74-3.86a.75.75%200%201%201%201.08%201.04l-4.28%204.42a.75.75%200%200%201-1.08%200L5.16%208.28a.75.75%200%200%201%20.04-1.06Z'/%3E%3C/svg%3E")] bg-[length:1.25rem] bg-[right_0.6rem_center] bg-no-repeat pr-10 ${props.className ?? ''}`}
    />
  );
}

interface CheckboxProps extends Omit<ComponentProps<'input'>, 'type'> {
  label: ReactNode;
}

/** A native checkbox with its label; the whole row is clickable. */
export function Checkbox({ label, className = '', id, ...props }: CheckboxProps) {
  return (
    <label htmlFor={id} className={`flex cursor-pointer items-start gap-3 text-sm text-slate-800 ${className}`}>
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 cursor-pointer rounded border-slate-400 accent-brand"
        {...props}
      />
      <span>{label}</span>
    </label>
  );
}
