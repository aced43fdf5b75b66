import { Form, Formik } from 'formik';
import { type ContactSubmissionInput, contactSubjects, contactSubmissionSchema } from '../../../../api/contract/leads';
import { validateWith } from '../../../lib/form';
import { submitContact } from '../api';
import { formToasts } from '../messages';
import { submitLead } from '../submit';
import { HoneypotField, SelectField, SubmitButton, TextareaField, TextField } from '../../../components/form/formik-fields';

type ContactValues = Omit<ContactSubmissionInput, 'subject'> & { subject: ContactSubmissionInput['subject'] | '' };

const initialValues: ContactValues = { name: '', email: '', company: '', phone: '', subject: '', message: '', _gotcha: '' };

export function ContactForm() {
  return (
    <Formik
      initialValues={initialValues}
      validate={validateWith<ContactValues>(contactSubmissionSchema)}
      onSubmit={(values, helpers) =>
        submitLead((input: ContactValues) => submitContact(input as ContactSubmissionInput), values, helpers, {
          success: formToasts.contactSuccess,
          failure: formToasts.contactFailure,
        })
      }
    >
      {({ isSubmitting }) => (
        <Form noValidate className="relative grid gap-5 sm:grid-cols-2" aria-label="Send us a message">
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
