import { Form, Formik } from 'formik';
import { useState } from 'react';
import type { LeadCreatedAnswer } from '../../../../api/contract/after-submit';
import { supportCategories, supportPriorities, type SupportTicketInput, supportTicketSchema } from '../../../../api/contract/leads';
import { FormGuide } from '../../../components/form/form-guide';
import { buttonClasses } from '../../../components/ui/button';
import { validateWith } from '../../../lib/form';
import { submitSupportTicket } from '../api';
import { formToasts } from '../messages';
import { submitLead } from '../submit';
import { ThankYou } from './thank-you';
import { HoneypotField, SelectField, SubmitButton, TextareaField, TextField } from '../../../components/form/formik-fields';

type SupportValues = Omit<SupportTicketInput, 'priority' | 'category'> & {
  priority: SupportTicketInput['priority'] | '';
  category: SupportTicketInput['category'] | '';
};

const initialValues: SupportValues = {
  name: '',
  email: '',
  company: '',
  priority: '',
  category: '',
  subject: '',
  description: '',
  _gotcha: '',
};

export function SupportTicketForm() {
  const [created, setCreated] = useState<{ answer: LeadCreatedAnswer; email: string } | null>(null);
  if (created) {
    return (
      <ThankYou kind="support" answer={created.answer} email={created.email} heading="h3">
        <button type="button" className={buttonClasses('outline', 'md')} onClick={() => setCreated(null)}>
          Create another ticket
        </button>
      </ThankYou>
    );
  }
  return (
    <Formik
      initialValues={initialValues}
      validate={validateWith<SupportValues>(supportTicketSchema)}
      onSubmit={(values, helpers) =>
        submitLead((input: SupportValues) => submitSupportTicket(input as SupportTicketInput), values, helpers, {
          failure: formToasts.supportFailure,
          onSuccess: (answer) => setCreated({ answer, email: values.email.trim() }),
        })
      }
    >
      {({ isSubmitting }) => (
        <Form noValidate className="relative grid gap-5 sm:grid-cols-2" aria-label="Create support ticket">
          <FormGuide form="ticket" />
          <TextField form="ticket" name="name" label="Full Name" required autoComplete="name" />
          <TextField form="ticket" name="email" label="Email Address" type="email" required autoComplete="email" />
          <TextField form="ticket" name="company" label="Dealership Name" required autoComplete="organization" className="sm:col-span-2" />
          <SelectField form="ticket" name="priority" label="Priority" required options={supportPriorities} placeholder="Select priority" />
          <SelectField form="ticket" name="category" label="Category" required options={supportCategories} placeholder="Select a category" />
          <TextField form="ticket" name="subject" label="Subject" required className="sm:col-span-2" placeholder="Brief summary of the issue" />
          <TextareaField
            form="ticket"
            name="description"
            label="Description"
            required
            rows={6}
            className="sm:col-span-2"
            placeholder="What happened, what you expected, and the steps to reproduce it."
          />
          <HoneypotField />
          <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-slate-600">
              Fields marked <span className="text-red-700">*</span> are required. We respond within 2 hours during business hours.
            </p>
            <SubmitButton pending={isSubmitting} label="Submit Ticket" pendingLabel="Creating Ticket..." />
          </div>
        </Form>
      )}
    </Formik>
  );
}
