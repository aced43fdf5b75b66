import { Form, Formik } from 'formik';
import { useState } from 'react';
import type { LeadCreatedAnswer } from '../../../../api/contract/after-submit';
import { type DemoRequestInput, demoRequestSchema } from '../../../../api/contract/leads';
import { FormGuide } from '../../../components/form/form-guide';
import { buttonClasses } from '../../../components/ui/button';
import { validateWith } from '../../../lib/form';
import { submitDemoRequest } from '../api';
import { formToasts } from '../messages';
import { submitLead } from '../submit';
import { ThankYou } from './thank-you';
import { HoneypotField, SubmitButton, TextareaField, TextField } from '../../../components/form/formik-fields';

const initialValues: DemoRequestInput = { name: '', email: '', company: '', phone: '', message: '', _gotcha: '' };

/** The home page's demo request (name, email, company; phone and message optional); its thank-you closes the dialog with Done. */
export function DemoRequestForm({ onClose }: { onClose: () => void }) {
  const [requested, setRequested] = useState<{ answer: LeadCreatedAnswer; email: string } | null>(null);
  if (requested) {
    return (
      <div className="mt-6">
        <ThankYou kind="demo" answer={requested.answer} email={requested.email} heading="h3">
          <button type="button" className={buttonClasses('brand', 'md')} onClick={onClose}>
            Done
          </button>
        </ThankYou>
      </div>
    );
  }
  return (
    <Formik
      initialValues={initialValues}
      validate={validateWith<DemoRequestInput>(demoRequestSchema)}
      onSubmit={(values, helpers) =>
        submitLead(submitDemoRequest, values, helpers, {
          failure: formToasts.demoFailure,
          onSuccess: (answer) => setRequested({ answer, email: values.email.trim() }),
        })
      }
    >
      {({ isSubmitting }) => (
        <Form noValidate className="relative mt-6 grid gap-4 sm:grid-cols-2" aria-label="Request a demo">
          <FormGuide form="demo" />
          <TextField form="demo" name="name" label="Full Name" required autoComplete="name" />
          <TextField form="demo" name="email" label="Email Address" type="email" required autoComplete="email" />
          <TextField form="demo" name="company" label="Dealership Name" required autoComplete="organization" />
          <TextField form="demo" name="phone" label="Phone (optional)" type="tel" autoComplete="tel" />
          <TextareaField
            form="demo"
            name="message"
            label="Anything we should know? (optional)"
            rows={3}
            className="sm:col-span-2"
            placeholder="Inventory size, current website provider, best time to call..."
          />
          <HoneypotField />
          <SubmitButton pending={isSubmitting} label="Request Demo" pendingLabel="Submitting..." className="sm:col-span-2" />
        </Form>
      )}
    </Formik>
  );
}
