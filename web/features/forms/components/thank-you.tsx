import { CheckCircle2 } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { afterSubmitCopy, type LeadCreatedAnswer } from '../../../../api/contract/after-submit';
import type { LeadKind } from '../../../../api/contract/leads';
import { planLabel, pricingPlanOf } from '../../../../api/contract/plans';

/** The reference of a stored lead; none for a submission that was not stored (a filled honeypot). */
export function referenceOf(answer: LeadCreatedAnswer): string | undefined {
  return 'reference' in answer ? answer.reference : undefined;
}

interface ThankYouProps {
  kind: LeadKind;
  answer: LeadCreatedAnswer;
  /** The address the confirmation mail goes to. */
  email: string;
  plan?: string | null;
  /** Heading level: `h3` under a section's own `h2`. */
  heading?: 'h2' | 'h3';
  /** What the visitor can do next (another message, continue to payment, close). */
  children?: ReactNode;
}

/**
 * What takes a form's place after a valid submit (DESIGN.md 16): the spec's success words, the
 * reference, the plan, where the confirmation went and what happens next. It lasts until the
 * visitor leaves or asks for the form again. Its heading takes focus, so a screen reader reads it
 * and a phone scrolls to it from the far end of a long form.
 */
export function ThankYou({ kind, answer, email, plan, heading: Heading = 'h2', children }: ThankYouProps) {
  const copy = afterSubmitCopy[kind];
  const reference = referenceOf(answer);
  const pricingPlan = pricingPlanOf(plan);
  const title = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    title.current?.focus({ preventScroll: true });
    title.current?.scrollIntoView?.({ block: 'start' });
  }, []);

  return (
    <section aria-labelledby={`${kind}-thank-you-title`} className="grid gap-5" data-testid="thank-you">
      <div className="flex items-start gap-3">
        <CheckCircle2 className="mt-0.5 size-7 shrink-0 text-emerald-600" aria-hidden="true" />
        <div>
          <Heading id={`${kind}-thank-you-title`} ref={title} tabIndex={-1} className="scroll-mt-24 text-xl font-bold text-slate-900 focus:outline-none sm:text-2xl">
            {copy.title}
          </Heading>
          <p className="mt-1 text-slate-700">{copy.lead}</p>
        </div>
      </div>
      {reference || pricingPlan ? (
        <dl className="grid gap-3 rounded-xl bg-brand-light p-4 sm:grid-cols-2">
          {reference ? (
            <div>
              <dt className="text-sm font-medium text-slate-700">Your reference</dt>
              <dd className="text-lg font-bold tracking-wide text-brand" data-testid="lead-reference">
                {reference}
              </dd>
            </div>
          ) : null}
          {pricingPlan ? (
            <div>
              <dt className="text-sm font-medium text-slate-700">Your plan</dt>
              <dd className="text-lg font-bold text-brand">{planLabel(pricingPlan)}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      <p className="text-sm text-slate-700">
        We&apos;ve sent a confirmation to <strong className="[overflow-wrap:anywhere]">{email}</strong>
        {reference ? ' with your reference' : ''}.
      </p>
      <div>
        <h3 className="font-semibold text-slate-900">What happens next</h3>
        <ol className="mt-2 grid list-decimal gap-2 pl-5 text-sm text-slate-700">
          {copy.nextSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>
      {children ? <div className="flex flex-col gap-3 sm:flex-row">{children}</div> : null}
    </section>
  );
}
