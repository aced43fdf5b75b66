import type {
  ContactSubmissionInput,
  DemoRequestInput,
  GetStartedRequestInput,
  SupportTicketInput,
} from '../../../api/contract/leads';
import type { LeadCreatedAnswer } from '../../../api/contract/after-submit';
import { api } from '../../lib/api-client';
import { leadPaths } from '../../../api/contract/paths';

/** The four public lead forms: the answer carries the stored lead's id and reference (the thank-you shows it). */
export const submitDemoRequest = (input: DemoRequestInput) => api.post<LeadCreatedAnswer>(leadPaths.demo.create, input);
export const submitContact = (input: ContactSubmissionInput) => api.post<LeadCreatedAnswer>(leadPaths.contact.create, input);
export const submitSupportTicket = (input: SupportTicketInput) => api.post<LeadCreatedAnswer>(leadPaths.support.create, input);
export const submitGetStarted = (input: GetStartedRequestInput) => api.post<LeadCreatedAnswer>(leadPaths['get-started'].create, input);
