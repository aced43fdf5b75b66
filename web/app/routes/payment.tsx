import { CreditCard } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { brand } from '../../../api/contract/brand';
import { planLabel, planQueryParam, pricingPlanOf } from '../../../api/contract/plans';
import { buttonClasses } from '../../components/ui/button';
import { storageKeys } from '../../lib/storage-keys';

interface SavedApplication {
  firstName?: string;
  dealershipName?: string;
  plan?: string;
  reference?: string;
}

function savedApplication(): SavedApplication | null {
  try {
    const raw = localStorage.getItem(storageKeys.dealerApplication);
    return raw ? (JSON.parse(raw) as SavedApplication) : null;
  } catch {
    return null;
  }
}

/**
 * Payment is not live yet: the application is saved, and support completes the setup with the dealer.
 * The plan comes from `?plan=` (the thank-you's link), else from the application this browser just
 * sent; /payment is not prerendered, so both are read as it renders.
 */
export function PaymentPage() {
  const application = savedApplication();
  const [params] = useSearchParams();
  const plan = pricingPlanOf(params.get(planQueryParam)) ?? pricingPlanOf(application?.plan);
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center sm:px-6">
      <span className="mx-auto flex size-16 items-center justify-center rounded-full bg-brand-light text-brand">
        <CreditCard className="size-8" aria-hidden="true" />
      </span>
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Complete Your Setup</h1>
      {application?.dealershipName ? (
        <p className="mt-4 text-lg text-slate-700">
          Thanks{application.firstName ? `, ${application.firstName}` : ''}! We have your application for{' '}
          <strong>{application.dealershipName}</strong>
          {application.reference ? (
            <>
              {' '}
              (reference <strong>{application.reference}</strong>)
            </>
          ) : null}
          .
        </p>
      ) : null}
      {plan ? (
        <dl className="mx-auto mt-6 inline-block rounded-xl bg-brand-light px-6 py-4" data-testid="payment-plan">
          <dt className="text-sm font-medium text-slate-700">Your plan</dt>
          <dd className="text-xl font-bold text-brand">{planLabel(plan)}</dd>
        </dl>
      ) : null}
      <p className="mt-4 text-lg text-slate-700">
        Online payment processing is being configured. To complete your setup, please contact our support team and we'll
        take care of billing with you directly.
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <a href={brand.phoneHref} className={buttonClasses('cta', 'lg')}>
          Call {brand.phone}
        </a>
        <a href={`mailto:${brand.supportEmail}`} className={buttonClasses('outline', 'lg')}>
          Email support
        </a>
      </div>
    </section>
  );
}
