import { useField, useFormikContext } from 'formik';
import type { FocusEvent, ReactNode } from 'react';
import { honeypotName } from '../../../api/contract/common';
import { Checkbox, Field, fieldAria, Input, Select, Textarea, useFieldErrorRole } from '../ui/field';

/**
 * Marks the field touched on blur, except when focus moves to the submit button: the message then
 * appears with the others on submit, instead of shifting the button away from under the pointer
 * between the press and the release (which would swallow the click).
 */
function blurUnlessSubmitting(onBlur: (event: FocusEvent<Element>) => void) {
  return (event: FocusEvent<Element>) => {
    const next = event.relatedTarget;
    if (next instanceof HTMLButtonElement && next.type === 'submit') return;
    onBlur(event);
  };
}

/** A field's message shows once the field was left or the form was submitted. */
function useFieldError(name: string): string | undefined {
  const [, meta] = useField(name);
  const { submitCount } = useFormikContext();
  return meta.error && (meta.touched || submitCount > 0) ? meta.error : undefined;
}

interface BaseProps {
  /** Form-unique prefix so two forms on one page never share an id. */
  form: string;
  name: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  className?: string;
}

type TextFieldProps = BaseProps & {
  type?: 'text' | 'email' | 'tel' | 'password' | 'url';
  autoComplete?: string;
  placeholder?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric' | 'url';
  maxLength?: number;
};

export function TextField({ form, name, label, required, hint, className, type = 'text', ...rest }: TextFieldProps) {
  const [field] = useField<string>(name);
  const error = useFieldError(name);
  const id = `${form}-${name}`;
  return (
    <Field id={id} label={label} error={error} hint={hint} required={required} className={className}>
      <Input {...field} onBlur={blurUnlessSubmitting(field.onBlur)} value={field.value ?? ''} type={type} {...fieldAria(id, error, Boolean(hint))} aria-required={required} {...rest} />
    </Field>
  );
}

type TextareaFieldProps = BaseProps & { rows?: number; placeholder?: string; maxLength?: number };

export function TextareaField({ form, name, label, required, hint, className, rows = 5, ...rest }: TextareaFieldProps) {
  const [field] = useField<string>(name);
  const error = useFieldError(name);
  const id = `${form}-${name}`;
  return (
    <Field id={id} label={label} error={error} hint={hint} required={required} className={className}>
      <Textarea {...field} onBlur={blurUnlessSubmitting(field.onBlur)} value={field.value ?? ''} rows={rows} {...fieldAria(id, error, Boolean(hint))} aria-required={required} {...rest} />
    </Field>
  );
}

type SelectFieldProps = BaseProps & {
  options: readonly { value: string; label: string }[];
  placeholder: string;
  /** The placeholder is a choice of its own (an optional field's "none"), not only a prompt. */
  placeholderSelectable?: boolean;
};

export function SelectField({ form, name, label, required, hint, className, options, placeholder, placeholderSelectable }: SelectFieldProps) {
  const [field] = useField<string>(name);
  const error = useFieldError(name);
  const id = `${form}-${name}`;
  return (
    <Field id={id} label={label} error={error} hint={hint} required={required} className={className}>
      <Select {...field} onBlur={blurUnlessSubmitting(field.onBlur)} value={field.value ?? ''} {...fieldAria(id, error, Boolean(hint))} aria-required={required}>
        <option value="" disabled={!placeholderSelectable}>
          {placeholder}
        </option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** A single yes/no checkbox bound to a boolean value. */
export function CheckboxField({ form, name, label, className }: Omit<BaseProps, 'required' | 'hint'>) {
  const [field, , helpers] = useField<boolean>(name);
  const error = useFieldError(name);
  const errorRole = useFieldErrorRole();
  const id = `${form}-${name}`;
  return (
    <div className={className}>
      <Checkbox
        name={name}
        checked={Boolean(field.value)}
        onChange={(event) => void helpers.setValue(event.target.checked)}
        onBlur={field.onBlur}
        label={label}
        {...fieldAria(id, error)}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1.5 ml-7 text-sm text-red-700" role={errorRole}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A group of checkboxes bound to a string array. */
export function CheckboxGroupField({
  form,
  name,
  legend,
  options,
  required,
  className = '',
  columns = 'sm:grid-cols-2',
}: {
  form: string;
  name: string;
  legend: ReactNode;
  options: readonly string[];
  required?: boolean;
  className?: string;
  columns?: string;
}) {
  const [field, , helpers] = useField<string[]>(name);
  const error = useFieldError(name);
  const errorRole = useFieldErrorRole();
  const selected = field.value ?? [];
  const id = `${form}-${name}`;
  return (
    <fieldset className={className} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-3 text-sm font-medium text-slate-800">
        {legend}
        {required ? (
          <span className="text-red-700" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </legend>
      <div className={`grid gap-3 ${columns}`}>
        {options.map((option, index) => (
          <Checkbox
            key={option}
            id={`${id}-${index}`}
            name={name}
            value={option}
            checked={selected.includes(option)}
            onChange={(event) => {
              const next = event.target.checked ? [...selected, option] : selected.filter((value) => value !== option);
              void helpers.setValue(next);
            }}
            onBlur={() => void helpers.setTouched(true)}
            label={option}
            className="rounded-lg border border-slate-200 px-3 py-2.5 hover:border-brand/60"
          />
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-2 text-sm text-red-700" role={errorRole}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The hidden spam trap of every public form: people never see or reach it; bots fill it in. */
export function HoneypotField() {
  const [field] = useField<string>(honeypotName);
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label>
        Leave this field empty
        <input {...field} value={field.value ?? ''} tabIndex={-1} autoComplete="off" />
      </label>
    </div>
  );
}

export function SubmitButton({ pending, label, pendingLabel, className = '' }: { pending: boolean; label: string; pendingLabel: string; className?: string }) {
  return (
    <button
      type="submit"
      disabled={pending}
      className={`inline-flex h-12 shrink-0 items-center justify-center gap-2 rounded-lg bg-cta px-6 whitespace-nowrap text-base font-semibold text-white shadow-sm transition-colors hover:bg-cta-dark disabled:cursor-not-allowed disabled:opacity-60 ${className}`}
    >
      {pending ? (
        <span className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" aria-hidden="true" />
      ) : null}
      {pending ? pendingLabel : label}
    </button>
  );
}
