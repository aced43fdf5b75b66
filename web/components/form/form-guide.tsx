import { Form, useFormikContext } from 'formik';
import { type ComponentProps, type MouseEvent, useEffect, useRef, useState } from 'react';
import { FieldErrorsAnnounced } from '../ui/field';

/** A field with an error, as the summary lists it: the control to go to and the message under it. */
interface ErrorEntry {
  targetId: string;
  message: string;
}

/**
 * The invalid controls of a form, in the order a person meets them on the page: each field's own
 * control (or a group's first box), found by the ids the form fields give them (`<form>-<name>`).
 */
function invalidControls(formElement: HTMLFormElement | null, form: string, errors: Record<string, unknown>): ErrorEntry[] {
  if (!formElement) return [];
  const entries: { element: HTMLElement; entry: ErrorEntry }[] = [];
  for (const [name, message] of Object.entries(errors)) {
    if (typeof message !== 'string') continue;
    const element = [`${form}-${name}`, `${form}-${name}-0`]
      .map((id) => formElement.ownerDocument.getElementById(id))
      .find((found) => found !== null && formElement.contains(found));
    if (element) entries.push({ element, entry: { targetId: element.id, message } });
  }
  entries.sort((a, b) => (a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  return entries.map(({ entry }) => entry);
}

/** Focus without the browser's own jump, then scroll the control into the middle of the screen (its label shows above it). */
function focusControl(element: HTMLElement | null) {
  if (!element) return;
  element.focus({ preventScroll: true });
  const reduceMotion = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView?.({ block: 'center', behavior: reduceMotion ? 'auto' : 'smooth' });
}

/**
 * Guides a person after an invalid submit (DESIGN.md 16): focus and scroll go to the first invalid
 * field; with `summary`, a list of every error sits at the top of the form, announced (role="alert")
 * and each entry a link to its field. The summary follows the errors as they are fixed and leaves
 * when none is left. Put it first inside a Formik `<Form>`; `form` is the fields' id prefix. With
 * `summary`, use `SummarizedForm` for that `<Form>`.
 */
export function FormGuide({
  form,
  summary = false,
  title = 'Please correct the following',
  className,
}: {
  form: string;
  summary?: boolean;
  title?: string;
  /** Of the summary's live region, which stays in the page (empty) so that what appears in it is read. */
  className?: string;
}) {
  const { submitCount, isSubmitting, isValidating, errors } = useFormikContext<Record<string, unknown>>();
  const anchor = useRef<HTMLDivElement>(null);
  const guidedSubmit = useRef(0);
  const [entries, setEntries] = useState<ErrorEntry[]>([]);
  /** The field to go to after a refused submit: gone to once the summary above it is in the page. */
  const [firstInvalid, setFirstInvalid] = useState<{ targetId: string; submit: number } | null>(null);

  const formElement = () => anchor.current?.closest('form') ?? null;

  // After each submit Formik refused (it ends without sending): the summary of that moment, and
  // focus on the first invalid field. The summary stays as it was until the next submit, so the
  // alert is read once per submit, not again at each fix; it leaves when every error is fixed.
  useEffect(() => {
    if (submitCount === 0 || isSubmitting || isValidating || guidedSubmit.current === submitCount) return;
    guidedSubmit.current = submitCount;
    const found = invalidControls(formElement(), form, errors);
    setEntries(found);
    if (found.length > 0) setFirstInvalid({ targetId: found[0]!.targetId, submit: submitCount });
  }, [submitCount, isSubmitting, isValidating, errors, form]);

  // After the render that shows the summary: a scroll worked out before it would end off target by
  // the summary's height (on a phone, the whole screen) once it appears above the field.
  useEffect(() => {
    if (firstInvalid) focusControl(document.getElementById(firstInvalid.targetId));
  }, [firstInvalid]);

  const goTo = (event: MouseEvent<HTMLAnchorElement>, targetId: string) => {
    event.preventDefault();
    focusControl(document.getElementById(targetId));
  };

  if (!summary) return <div ref={anchor} hidden />;
  const count = Object.keys(errors).length > 0 ? entries.length : 0;
  return (
    <div ref={anchor} role="alert" aria-labelledby={`${form}-error-summary-title`} className={className}>
      {count > 0 ? (
        <div className="scroll-mt-24 rounded-xl border-2 border-red-700 bg-red-50 p-5" data-testid="error-summary">
          <h2 id={`${form}-error-summary-title`} className="text-base font-semibold text-red-800">
            {title} ({count} {count === 1 ? 'problem' : 'problems'})
          </h2>
          <ul className="mt-3 grid gap-1.5 text-sm">
            {entries.map((entry) => (
              <li key={entry.targetId}>
                <a
                  href={`#${entry.targetId}`}
                  onClick={(event) => goTo(event, entry.targetId)}
                  className="font-medium text-red-800 underline underline-offset-2 hover:text-red-950"
                >
                  {entry.message}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/**
 * A Formik `<Form>` whose errors a `FormGuide summary` announces: the summary is the form's one
 * alert, and each field's message is its control's description, not one more alert among a dozen.
 */
export function SummarizedForm(props: ComponentProps<typeof Form>) {
  return (
    <FieldErrorsAnnounced value={false}>
      <Form {...props} />
    </FieldErrorsAnnounced>
  );
}
