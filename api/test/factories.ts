import type { FastifyInstance } from 'fastify';
import type {
  ContactSubmissionInput,
  DemoRequestInput,
  GetStartedRequestInput,
  LeadKind,
  SupportTicketInput,
} from '../contract/leads';
import { cookiesFrom } from './helper';

export const staffEmail = 'staff@lotwise.example';
export const staffPassword = 'staff-password-123';
/** Environment that creates the staff account the tests sign in with. */
export const staffEnv = { ADMIN_EMAIL: staffEmail, ADMIN_PASSWORD: staffPassword };

export function demoRequest(overrides: Partial<DemoRequestInput> = {}): DemoRequestInput {
  return { name: 'Dana Reyes', email: 'dana@reyes-motors.example', company: 'Reyes Motors', phone: '512-555-0101', message: 'Please call me', ...overrides };
}

export function contactSubmission(overrides: Partial<ContactSubmissionInput> = {}): ContactSubmissionInput {
  return {
    name: 'Sam Carter',
    email: 'sam@carter-autos.example',
    company: 'Carter Autos',
    phone: '(512) 555-0102',
    subject: 'pricing',
    message: 'How much for 80 cars on the lot?',
    ...overrides,
  };
}

export function supportTicket(overrides: Partial<SupportTicketInput> = {}): SupportTicketInput {
  return {
    name: 'Lee Park',
    email: 'lee@park-cars.example',
    company: 'Park Cars',
    priority: 'high',
    category: 'technical',
    subject: 'Feed not updating',
    description: 'Our inventory feed stopped updating yesterday morning.',
    ...overrides,
  };
}

export function getStartedRequest(overrides: Partial<GetStartedRequestInput> = {}): GetStartedRequestInput {
  return {
    firstName: 'Alex',
    lastName: 'Morgan',
    email: 'alex@morgan-auto.example',
    phone: '512-555-0103',
    dealershipName: 'Morgan Auto Sales',
    address: '1200 Congress Avenue',
    city: 'Austin',
    state: 'TX',
    zipCode: '78701',
    inventorySize: '50-99',
    launchDate: 'asap',
    currentWebsite: 'https://morgan-auto.example',
    primaryGoals: ['Increase online leads', 'Mobile-friendly website'],
    feedExportDestinations: ['CarGurus', 'AutoTrader'],
    allowMarketing: true,
    agreeToTerms: true,
    ...overrides,
  };
}

export const validInput: { [K in LeadKind]: () => Record<string, unknown> } = {
  contact: () => ({ ...contactSubmission() }),
  support: () => ({ ...supportTicket() }),
  demo: () => ({ ...demoRequest() }),
  'get-started': () => ({ ...getStartedRequest() }),
};

/** Signs in through the real endpoint; returns the Cookie header of the staff session. */
export async function signInStaff(app: FastifyInstance, email = staffEmail, password = staffPassword): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/admin-login', payload: { username: email, password } });
  if (response.statusCode !== 200) throw new Error(`staff sign-in failed: ${response.statusCode} ${response.body}`);
  return cookiesFrom(response);
}
