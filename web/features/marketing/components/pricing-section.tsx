import { Check } from 'lucide-react';
import { Link } from 'react-router-dom';
import { planQueryParam } from '../../../../api/contract/plans';
import { buttonClasses } from '../../../components/ui/button';
import { planFeatures, plans } from '../content';

/** The features every plan has, each ticked. */
function PlanFeatureList({ className }: { className: string }) {
  return (
    <ul className={className}>
      {planFeatures.map((feature) => (
        <li key={feature} className="flex gap-3">
          <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
          {feature}
        </li>
      ))}
    </ul>
  );
}

export function PricingSection() {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-20 bg-slate-50 py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-cta-dark uppercase">Pricing</p>
          <h2 id="pricing-title" className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
            Simple pricing. Every feature included.
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Pick the plan that fits your lot. No setup surprises, no plugin fees, cancel any time.
          </p>
        </div>
        <ul className="mt-14 grid gap-6 lg:grid-cols-3 lg:gap-8">
          {plans.map((plan) => (
            <li
              key={plan.planId}
              className={`relative flex flex-col rounded-2xl bg-white p-8 ${
                plan.popular ? 'border-2 border-brand shadow-xl lg:-my-3 lg:py-11' : 'border border-slate-200 shadow-sm'
              }`}
            >
              {plan.popular ? (
                <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-brand px-4 py-1 text-xs font-semibold tracking-wide text-white uppercase">
                  Most Popular
                </p>
              ) : null}
              <h3 className="text-lg font-bold text-slate-900">{plan.name}</h3>
              <p className="mt-2 text-sm text-slate-600">{plan.description}</p>
              <p className="mt-6 flex items-baseline gap-1">
                <span className="text-5xl font-extrabold tracking-tight text-slate-900">${plan.price}</span>
                <span className="text-base font-medium text-slate-600">/month</span>
              </p>
              <p className="mt-2 text-sm font-medium text-brand">{plan.users}</p>
              <Link
                to={`/get-started?${planQueryParam}=${plan.planId}`}
                className={buttonClasses(plan.popular ? 'cta' : 'brand', 'md', 'mt-6 w-full')}
                aria-label={`Get Started with ${plan.name}`}
              >
                Get Started
              </Link>
              {/* Every plan has the same features: side by side each card lists them, stacked they are listed once below. */}
              <PlanFeatureList className="mt-8 hidden gap-3 text-sm text-slate-700 lg:grid" />
            </li>
          ))}
        </ul>
        <div className="mx-auto mt-10 max-w-2xl rounded-2xl border border-slate-200 bg-white p-6 sm:p-8 lg:hidden">
          <h3 className="text-lg font-bold text-slate-900">Every plan includes</h3>
          <PlanFeatureList className="mt-4 grid gap-3 text-sm text-slate-700 sm:grid-cols-2" />
        </div>
      </div>
    </section>
  );
}
