import { Form, Formik } from 'formik';
import { type DemoRequestInput, demoRequestSchema } from '../../../../api/contract/leads';
import { validateWith } from '../../../lib/form';
import { submitDemoRequest } from '../api';
import { formToasts } from '../messages';
import { submitLead } from '../submit';
import { HoneypotField, SubmitButton, TextareaField, TextField } from '../../../components/form/formik-fields';

const initialValues: DemoRequestInput = { name: '', email: '', company: '', phone: '', message: '', _gotcha: '' };

/** The home page's demo request (name, email, company; phone and message optional). */
export function DemoRequestForm({ onSubmitted }: { onSubmitted: () => void }) {
  return (
    <Formik
      initialValues={initialValues}
      validate={validateWith<DemoRequestInput>(demoRequestSchema)}
      onSubmit={(values, helpers) =>
        submitLead(submitDemoRequest, values, helpers, {
          success: formToasts.demoSuccess,
          failure: formToasts.demoFailure,
          onSuccess: onSubmitted,
        })
      }
    >
      {({ isSubmitting }) => (
        <Form noValidate className="relative mt-6 grid gap-4 sm:grid-cols-2" aria-label="Request a demo">
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
