/** Plans and claims of the marketing pages, in one place for the pages that show them. */

export type PlanId = 'starter' | 'professional' | 'enterprise';

export interface Plan {
  planId: PlanId;
  name: string;
  price: number;
  description: string;
  users: string;
  popular: boolean;
}

export const plans: readonly Plan[] = [
  {
    planId: 'starter',
    name: 'Starter',
    price: 99,
    description: 'For pre-owned dealerships with up to 50 cars.',
    users: '1 user account',
    popular: false,
  },
  {
    planId: 'professional',
    name: 'Professional',
    price: 199,
    description: 'For pre-owned dealerships with up to 100 cars.',
    users: '3 user accounts',
    popular: true,
  },
  {
    planId: 'enterprise',
    name: 'Enterprise',
    price: 299,
    description: 'For pre-owned dealerships with over 100 cars.',
    users: '5 user accounts',
    popular: false,
  },
];

/** Every plan includes all of these. */
export const planFeatures: readonly string[] = [
  'Responsive mobile-first design',
  '24/7 AI chat assistant',
  'Personalized inventory recommendations',
  'Click-to-text and click-to-call',
  'Payment calculator',
  'Trade-in and finance forms',
  'Inventory alerts and price-drop notifications',
  'Email/text follow-ups on new arrivals',
  'Calendar integration for test drives',
  'Urgency badges (views in last 24 hours)',
  'Low-stock countdown',
  'AI-generated dealer comments',
  'Saved favorites',
  'Recently viewed cars',
  'Live chat',
  'No extra plugin costs',
];

export const stats = [
  { value: '87%', label: 'Average cost savings' },
  { value: '40%', label: 'More deals closed' },
  { value: '2-3x', label: 'More leads' },
  { value: '350+', label: 'Dealerships in 37 states' },
] as const;

export interface Testimonial {
  quote: string;
  name: string;
  role: string;
}

/** Collected for the home page; the section stays off until each dealer signs their release. */
export const showTestimonials = false;
export const testimonials: readonly Testimonial[] = [
  {
    quote: 'We went live in six days and booked more test drives in the first month than in the whole quarter before.',
    name: 'Maria Delgado',
    role: 'Owner, Hill Country Motors',
  },
  {
    quote: 'The AI chat answers the 11 p.m. shoppers we used to lose. Half of our appointments now start there.',
    name: 'James Whitfield',
    role: 'General Manager, Whitfield Auto Sales',
  },
  {
    quote: 'We cut our website bill by more than 80% and our lead count doubled. I wish we had switched sooner.',
    name: 'Priya Raman',
    role: 'Co-owner, Lakeside Pre-Owned',
  },
];
