import { Form, Formik } from 'formik';
import { useState } from 'react';
import type { LeadCreatedAnswer } from '../../../../api/contract/after-submit';
import { type ContactSubmissionInput, contactSubjects, contactSubmissionSchema } from '../../../../api/contract/leads';
import { FormGuide } from '../../../components/form/form-guide';
import { buttonClasses } from '../../../components/ui/button';
import { validateWith } from '../../../lib/form';
import { submitContact } from '../api';
import { formToasts } from '../messages';
import { submitLead } from '../submit';
import { ThankYou } from './thank-you';
import { HoneypotField, SelectField, SubmitButton, TextareaField, TextField } from '../../../components/form/formik-fields';

type ContactValues = Omit<ContactSubmissionInput, 'subject'> & { subject: ContactSubmissionInput['subject'] | '' };

const initialValues: ContactValues = { name: '', email: '', company: '', phone: '', subject: '', message: '', _gotcha: '' };

export function ContactForm() {
  const [sent, setSent] = useState<{ answer: LeadCreatedAnswer; email: string } | null>(null);
  if (sent) {
    return (
      <ThankYou kind="contact" answer={sent.answer} email={sent.email} heading="h3">
        <button type="button" className={buttonClasses('outline', 'md')} onClick={() => setSent(null)}>
          Send another message
        </button>
      </ThankYou>
    );
  }
  return (
    <Formik
      initialValues={initialValues}
      validate={validateWith<ContactValues>(contactSubmissionSchema)}
      onSubmit={(values, helpers) =>
        submitLead((input: ContactValues) => submitContact(input as ContactSubmissionInput), values, helpers, {
          failure: formToasts.contactFailure,
          onSuccess: (answer) => setSent({ answer, email: values.email.trim() }),
        })
      }
    >
      {({ isSubmitting }) => (
        <Form noValidate className="relative grid gap-5 sm:grid-cols-2" aria-label="Send us a message">
          <FormGuide form="contact" />
          <TextField form="contact" name="name" label="Full Name" required autoComplete="name" />
          <TextField form="contact" name="email" label="Email Address" type="email" required autoComplete="email" />
          <TextField form="contact" name="company" label="Dealership Name" required autoComplete="organization" />
          <TextField form="contact" name="phone" label="Phone Number" type="tel" required autoComplete="tel" />
          <SelectField
            form="contact"
            name="subject"
            label="Subject"
            required
            options={contactSubjects}
            placeholder="Select a subject"
            className="sm:col-span-2"
          />
          <TextareaField
            form="contact"
            name="message"
            label="Message"
            required
            rows={6}
            className="sm:col-span-2"
            placeholder="Tell us about your dealership and how we can help."
          />
          <HoneypotField />
          <SubmitButton pending={isSubmitting} label="Send Message" pendingLabel="Sending..." className="sm:col-span-2" />
        </Form>
      )}
    </Formik>
  );
}
