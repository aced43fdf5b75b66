import { Formik, useFormikContext } from 'formik';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { LeadCreatedAnswer } from '../../../../api/contract/after-submit';
import { brand } from '../../../../api/contract/brand';
import {
  type GetStartedRequestInput,
  getStartedRequestSchema,
  inventorySizes,
  launchTimelines,
  primaryGoalOptions,
} from '../../../../api/contract/leads';
import { isPricingPlanId, planLabel, planQueryParam, pricingPlans, type PricingPlanId } from '../../../../api/contract/plans';
import { FormGuide, SummarizedForm } from '../../../components/form/form-guide';
import { buttonClasses } from '../../../components/ui/button';
import { validateWith } from '../../../lib/form';
import { storageKeys } from '../../../lib/storage-keys';
import { submitGetStarted } from '../api';
import { formToasts } from '../messages';
import { submitLead } from '../submit';
import { referenceOf, ThankYou } from './thank-you';
import {
  CheckboxField,
  CheckboxGroupField,
  HoneypotField,
  SelectField,
  SubmitButton,
  TextareaField,
  TextField,
} from '../../../components/form/formik-fields';

const otherGoal = 'Other:';

type GetStartedValues = Omit<
  GetStartedRequestInput,
  'inventorySize' | 'launchDate' | 'agreeToTerms' | 'primaryGoals' | 'feedExportDestinations' | 'plan'
> & {
  /** The pricing card's plan (`?plan=`), or '' for not decided yet. */
  plan: PricingPlanId | '';
  inventorySize: GetStartedRequestInput['inventorySize'] | '';
  launchDate: GetStartedRequestInput['launchDate'] | '';
  agreeToTerms: boolean;
  primaryGoals: string[];
  feedExportDestinations: string[];
  /** Text of the "Other:" goal; sent as part of that goal, not as its own field. */
  otherGoalText: string;
};

const initialValues: GetStartedValues = {
  plan: '',
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  dealershipName: '',
  address: '',
  city: '',
  state: '',
  zipCode: '',
  inventorySize: '',
  launchDate: '',
  currentWebsite: '',
  primaryGoals: [],
  currentWebsiteProvider: '',
  currentStickerPhotoCompany: '',
  currentFeedProvider: '',
  feedExportDestinations: [],
  additionalFeedDestinations: '',
  additionalInfo: '',
  allowMarketing: false,
  agreeToTerms: false,
  otherGoalText: '',
  _gotcha: '',
};

/** The request as sent and as saved in local storage: "Other:" carries what the dealer typed. */
function toGetStartedRequest(values: GetStartedValues): GetStartedRequestInput {
  const { otherGoalText, ...rest } = values;
  const detail = otherGoalText.trim();
  return {
    ...rest,
    primaryGoals: values.primaryGoals.map((goal) => (goal === otherGoal && detail ? `${otherGoal} ${detail}` : goal)),
  } as GetStartedRequestInput;
}

const planOptions = pricingPlans.map((plan) => ({ value: plan.planId, label: planLabel(plan) }));

/**
 * Takes the plan of `/get-started?plan=<planId>` (a pricing card's link) into the form. An effect,
 * so it runs after hydration: the prerendered page knows no query string. An unknown plan is ignored.
 */
function PlanFromQuery() {
  const [params] = useSearchParams();
  const { setFieldValue } = useFormikContext<GetStartedValues>();
  const planId = params.get(planQueryParam);
  useEffect(() => {
    if (isPricingPlanId(planId)) void setFieldValue('plan', planId, false);
  }, [planId, setFieldValue]);
  return null;
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="border-t border-slate-200 pt-8 first-of-type:border-t-0 first-of-type:pt-0">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      <div className="mt-5 grid gap-5 sm:grid-cols-2">{children}</div>
    </section>
  );
}

/** `/payment`, with the plan when one was picked (how /payment learns it; the saved application is its fallback). */
function paymentPath(plan: string | null | undefined): string {
  return isPricingPlanId(plan) ? `/payment?${planQueryParam}=${plan}` : '/payment';
}

export function GetStartedForm() {
  const [submitted, setSubmitted] = useState<{ answer: LeadCreatedAnswer; email: string; plan?: PricingPlanId } | null>(null);
  if (submitted) {
    return (
      <ThankYou kind="get-started" answer={submitted.answer} email={submitted.email} plan={submitted.plan}>
        <Link to={paymentPath(submitted.plan)} className={buttonClasses('cta', 'lg', 'w-full sm:w-auto')}>
          Continue to payment
        </Link>
      </ThankYou>
    );
  }
  return (
    <Formik
      initialValues={initialValues}
      validate={validateWith<GetStartedValues>(getStartedRequestSchema)}
      onSubmit={(values, helpers) => {
        const request = toGetStartedRequest(values);
        return submitLead(() => submitGetStarted(request), values, helpers, {
          failure: formToasts.getStartedFailure,
          onSuccess: (answer) => {
            const { _gotcha: _unused, ...saved } = request;
            try {
              localStorage.setItem(storageKeys.dealerApplication, JSON.stringify({ ...saved, reference: referenceOf(answer) }));
            } catch {
              // Storage full or disabled: the application is already stored on the server.
            }
            setSubmitted({ answer, email: request.email.trim(), plan: values.plan || undefined });
          },
        });
      }}
    >
      {({ isSubmitting, values }) => (
        <SummarizedForm noValidate className="relative grid gap-8" aria-label="Get started application">
          {/* Empty, it takes no row (and no gap) of the grid, yet stays in the page as a live region. */}
          <FormGuide form="gs" summary title="Please correct the following in your application" className="empty:absolute" />
          <PlanFromQuery />
          <Section title="Your Plan" description="All plans include every feature. Not sure yet? We'll help you choose on your strategy call.">
            <SelectField
              form="gs"
              name="plan"
              label="Plan"
              options={planOptions}
              placeholder="Not decided yet"
              placeholderSelectable
              className="sm:col-span-2"
            />
          </Section>

          <Section title="Personal Information">
            <TextField form="gs" name="firstName" label="First Name" required autoComplete="given-name" />
            <TextField form="gs" name="lastName" label="Last Name" required autoComplete="family-name" />
            <TextField form="gs" name="email" label="Email Address" type="email" required autoComplete="email" />
            <TextField form="gs" name="phone" label="Phone Number" type="tel" required autoComplete="tel" />
          </Section>

          <Section title="Dealership Information">
            <TextField form="gs" name="dealershipName" label="Dealership Name" required autoComplete="organization" className="sm:col-span-2" />
            <TextField form="gs" name="address" label="Street Address" required autoComplete="street-address" className="sm:col-span-2" />
            <TextField form="gs" name="city" label="City" required autoComplete="address-level2" />
            <div className="grid grid-cols-2 gap-4">
              <TextField form="gs" name="state" label="State" required autoComplete="address-level1" />
              <TextField form="gs" name="zipCode" label="ZIP Code" required autoComplete="postal-code" inputMode="numeric" />
            </div>
            <TextField
              form="gs"
              name="currentWebsite"
              label="Current Website (optional)"
              type="url"
              placeholder="https://www.yourdealership.com"
              className="sm:col-span-2"
            />
          </Section>

          <Section title="Business Details">
            <SelectField
              form="gs"
              name="inventorySize"
              label="Inventory Size"
              required
              options={inventorySizes}
              placeholder="Select your inventory size"
              hint="How many pre-owned vehicles you usually have on the lot."
            />
          </Section>

          <Section title="Launch Details">
            <SelectField
              form="gs"
              name="launchDate"
              label="Preferred Launch Date"
              required
              options={launchTimelines}
              placeholder="Select your preferred launch date"
            />
          </Section>

          <Section title="Primary Goals" description="What should your new website do for you? Select all that apply.">
            <CheckboxGroupField form="gs" name="primaryGoals" legend="Primary goals" required options={primaryGoalOptions} className="sm:col-span-2" />
            {values.primaryGoals.includes(otherGoal) ? (
              <TextField form="gs" name="otherGoalText" label="Other goal" placeholder="Tell us what else matters to you" className="sm:col-span-2" />
            ) : null}
          </Section>

          <Section title="Current Providers & Feed Export" description="Helps us plan your migration and keep your listings flowing.">
            <TextField form="gs" name="currentWebsiteProvider" label="Current Website Provider" placeholder="e.g. DealerOn, Dealer Inspire" />
            <TextField form="gs" name="currentStickerPhotoCompany" label="Current Sticker/Photo Company" />
            <TextField form="gs" name="currentFeedProvider" label="Current Feed Provider" placeholder="e.g. HomeNet, vAuto" />
            <CheckboxGroupField
              form="gs"
              name="feedExportDestinations"
              legend="Where should we export your inventory feed?"
              options={brand.feedExportDestinations}
              className="sm:col-span-2"
            />
            <TextareaField
              form="gs"
              name="additionalFeedDestinations"
              label="Additional Feed Destinations"
              rows={2}
              placeholder="Any other marketplaces or partners"
              className="sm:col-span-2"
            />
          </Section>

          <Section title="Additional Information">
            <TextareaField
              form="gs"
              name="additionalInfo"
              label="Anything else we should know?"
              rows={4}
              className="sm:col-span-2"
              placeholder="Special requests, integrations, questions..."
            />
          </Section>

          <div className="grid gap-4 rounded-xl bg-slate-50 p-5">
            <CheckboxField
              form="gs"
              name="agreeToTerms"
              label={
                <>
                  I agree to the{' '}
                  <Link to="/terms-of-service" className="font-medium text-brand underline underline-offset-2" target="_blank">
                    Terms of Service
                  </Link>{' '}
                  and{' '}
                  <Link to="/privacy-policy" className="font-medium text-brand underline underline-offset-2" target="_blank">
                    Privacy Policy
                  </Link>
                  <span className="text-red-700" aria-hidden="true">
                    {' '}
                    *
                  </span>
                </>
              }
            />
            <CheckboxField
              form="gs"
              name="allowMarketing"
              label={`Send me product updates and dealership marketing tips from ${brand.product}. You can unsubscribe at any time.`}
            />
          </div>

          <HoneypotField />
          <div className="grid gap-3">
            <SubmitButton pending={isSubmitting} label="Submit Application" pendingLabel="Submitting Application..." className="w-full" />
            <p className="text-center text-sm text-slate-600">Our team will contact you within 24 hours to schedule your strategy call.</p>
          </div>
        </SummarizedForm>
      )}
    </Formik>
  );
}
