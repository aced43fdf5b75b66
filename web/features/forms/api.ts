import type {
  ContactSubmissionInput,
  DemoRequestInput,
  GetStartedRequestInput,
  SupportTicketInput,
} from '../../../api/contract/leads';
import { api } from '../../lib/api-client';

/** The four public lead forms. Answers are not read beyond success. */
export const submitDemoRequest = (input: DemoRequestInput) => api.post<unknown>('/api/demo-request', input);
export const submitContact = (input: ContactSubmissionInput) => api.post<unknown>('/api/contact-submission', input);
export const submitSupportTicket = (input: SupportTicketInput) => api.post<unknown>('/api/support-ticket', input);
export const submitGetStarted = (input: GetStartedRequestInput) => api.post<unknown>('/api/get-started-request', input);
