import type {
  ContactSubmissionInput,
  DemoRequestInput,
  GetStartedRequestInput,
  SupportTicketInput,
} from '../../../api/contract/leads';
import { api } from '../../lib/api-client';
import { leadPaths } from '../../../api/contract/paths';

/** The four public lead forms. Answers are not read beyond success. */
export const submitDemoRequest = (input: DemoRequestInput) => api.post<unknown>(leadPaths.demo.create, input);
export const submitContact = (input: ContactSubmissionInput) => api.post<unknown>(leadPaths.contact.create, input);
export const submitSupportTicket = (input: SupportTicketInput) => api.post<unknown>(leadPaths.support.create, input);
export const submitGetStarted = (input: GetStartedRequestInput) => api.post<unknown>(leadPaths['get-started'].create, input);
