import type { FastifyInstance } from 'fastify';
import type {
  ContactSubmissionInput,
  DemoRequestInput,
  GetStartedRequestInput,
  LeadKind,
  SupportTicketInput,
} from '../../api/contract/leads';
import { apiPaths } from '../../api/contract/paths';
import { hashPassword } from '../../api/modules/auth/password';
import { sessionCookieName } from '../../api/plugins/session';
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

/** A staff sign-in: the Cookie header for the next requests, and the session id (the room `rooms.staffSession(sid)`). */
export interface StaffSignIn {
  cookie: string;
  sid: string;
}

/** Signs in through the real `POST /api/admin-login`, by default as the account of `staffEnv`. */
export async function signInStaff(app: FastifyInstance, email = staffEmail, password = staffPassword, remoteAddress?: string): Promise<StaffSignIn> {
  const response = await app.inject({ method: 'POST', url: apiPaths.staffLogin, remoteAddress, payload: { username: email, password } });
  if (response.statusCode !== 200) throw new Error(`staff sign-in failed: ${response.statusCode} ${response.body}`);
  const session = response.cookies.find((cookie) => cookie.name === sessionCookieName);
  const unsigned = session && app.unsignCookie(decodeURIComponent(session.value));
  if (!unsigned?.valid || !unsigned.value) throw new Error('staff sign-in set no valid session cookie');
  return { cookie: cookiesFrom(response), sid: unsigned.value };
}

let newStaffCount = 0;

/** A new staff account, signed in: for a server started without `staffEnv`, or a test of several staff members. */
export async function signInNewStaff(app: FastifyInstance): Promise<StaffSignIn> {
  newStaffCount += 1;
  const email = `staff${newStaffCount}@lotwise.example`;
  const password = 'staff-password-for-tests';
  await app.db.insertInto('admins').values({ email, passwordHash: await hashPassword(password), createdAt: new Date().toISOString() }).execute();
  // Each from its own address, so the per-address sign-in limit never trips a test.
  return signInStaff(app, email, password, `10.77.${Math.floor(newStaffCount / 250)}.${(newStaffCount % 250) + 1}`);
}
