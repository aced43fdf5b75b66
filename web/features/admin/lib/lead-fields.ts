import {
  contactSubjects,
  inventorySizes,
  launchTimelines,
  type LeadByKind,
  type LeadKind,
  supportCategories,
} from '../../../../api/contract/leads';
import { planLabel, pricingPlanOf } from '../../../../api/contract/plans';
import { optionLabel } from './format';

/** How each kind of lead is named: one of them, and the dashboard tab that lists them. */
export const leadKindNames: Record<LeadKind, { one: string; list: string }> = {
  contact: { one: 'Contact form', list: 'Contact Forms' },
  support: { one: 'Support ticket', list: 'Support Tickets' },
  demo: { one: 'Demo request', list: 'Demo Requests' },
  'get-started': { one: 'Get started request', list: 'Get Started Requests' },
};

/**
 * The page each form is on. The server stores no page with a lead; each form lives on exactly one
 * page of the site, so the kind of lead says where it was sent from.
 */
export const leadFormPages: Record<LeadKind, { name: string; path: string }> = {
  contact: { name: 'Contact page', path: '/contact' },
  support: { name: 'Support page', path: '/support' },
  demo: { name: 'Home page, Request Demo dialog', path: '/' },
  'get-started': { name: 'Get Started page', path: '/get-started' },
};

/** A field as the detail shows it; `null` is a field the dealer left empty. */
export type LeadFieldValue =
  | { type: 'text'; text: string | null }
  /** Typed into a text area: line breaks kept. */
  | { type: 'paragraph'; text: string | null }
  | { type: 'email'; text: string }
  | { type: 'phone'; text: string | null }
  | { type: 'list'; items: string[] }
  | { type: 'priority'; value: string };

export interface LeadField {
  label: string;
  value: LeadFieldValue;
  /** Long values take the whole width of the panel. */
  wide?: boolean;
}

export interface LeadSection {
  /** The form's section heading; absent for the short forms, which have none. */
  title?: string;
  fields: LeadField[];
}

const text = (value: string | null): LeadFieldValue => ({ type: 'text', text: value });
const paragraph = (value: string | null): LeadFieldValue => ({ type: 'paragraph', text: value });
const email = (value: string): LeadFieldValue => ({ type: 'email', text: value });
const phone = (value: string | null): LeadFieldValue => ({ type: 'phone', text: value });
const list = (items: string[]): LeadFieldValue => ({ type: 'list', items });
/** The pricing plan an application was started from, as the pricing cards name it; none when not picked. */
function planText(planId: string | null): string | null {
  const plan = pricingPlanOf(planId);
  return plan ? planLabel(plan) : null;
}

/** Who sent a lead, as lists and headings name them. */
export function leadSender(lead: LeadByKind[LeadKind]): string {
  return 'firstName' in lead ? `${lead.firstName} ${lead.lastName}` : lead.name;
}

/** Every field each form collected, in the form's order, with the form's labels and the option lists' names. */
export const leadSections: { [K in LeadKind]: (lead: LeadByKind[K]) => LeadSection[] } = {
  contact: (lead) => [
    {
      fields: [
        { label: 'Full Name', value: text(lead.name) },
        { label: 'Email Address', value: email(lead.email) },
        { label: 'Dealership Name', value: text(lead.company) },
        { label: 'Phone Number', value: phone(lead.phone) },
        { label: 'Subject', value: text(optionLabel(contactSubjects, lead.subject)), wide: true },
        { label: 'Message', value: paragraph(lead.message), wide: true },
      ],
    },
  ],
  support: (lead) => [
    {
      fields: [
        { label: 'Full Name', value: text(lead.name) },
        { label: 'Email Address', value: email(lead.email) },
        { label: 'Dealership Name', value: text(lead.company), wide: true },
        { label: 'Priority', value: { type: 'priority', value: lead.priority } },
        { label: 'Category', value: text(optionLabel(supportCategories, lead.category)) },
        { label: 'Subject', value: text(lead.subject), wide: true },
        { label: 'Description', value: paragraph(lead.description), wide: true },
      ],
    },
  ],
  demo: (lead) => [
    {
      fields: [
        { label: 'Full Name', value: text(lead.name) },
        { label: 'Email Address', value: email(lead.email) },
        { label: 'Dealership Name', value: text(lead.company) },
        { label: 'Phone', value: phone(lead.phone) },
        { label: 'Message', value: paragraph(lead.message), wide: true },
      ],
    },
  ],
  'get-started': (lead) => [
    {
      title: 'Your Plan',
      fields: [{ label: 'Plan', value: text(planText(lead.plan)) }],
    },
    {
      title: 'Personal Information',
      fields: [
        { label: 'First Name', value: text(lead.firstName) },
        { label: 'Last Name', value: text(lead.lastName) },
        { label: 'Email Address', value: email(lead.email) },
        { label: 'Phone Number', value: phone(lead.phone) },
      ],
    },
    {
      title: 'Dealership Information',
      fields: [
        { label: 'Dealership Name', value: text(lead.dealershipName), wide: true },
        { label: 'Street Address', value: text(lead.address), wide: true },
        { label: 'City', value: text(lead.city) },
        { label: 'State', value: text(lead.state) },
        { label: 'ZIP Code', value: text(lead.zipCode) },
        { label: 'Current Website', value: text(lead.currentWebsite) },
      ],
    },
    {
      title: 'Business Details',
      fields: [{ label: 'Inventory Size', value: text(optionLabel(inventorySizes, lead.inventorySize)) }],
    },
    {
      title: 'Launch Details',
      fields: [{ label: 'Preferred Launch Date', value: text(optionLabel(launchTimelines, lead.launchDate)) }],
    },
    {
      title: 'Primary Goals',
      fields: [{ label: 'Primary Goals', value: list(lead.primaryGoals), wide: true }],
    },
    {
      title: 'Current Providers & Feed Export',
      fields: [
        { label: 'Current Website Provider', value: text(lead.currentWebsiteProvider) },
        { label: 'Current Sticker/Photo Company', value: text(lead.currentStickerPhotoCompany) },
        { label: 'Current Feed Provider', value: text(lead.currentFeedProvider) },
        { label: 'Feed Export Destinations', value: list(lead.feedExportDestinations) },
        { label: 'Additional Feed Destinations', value: paragraph(lead.additionalFeedDestinations), wide: true },
      ],
    },
    {
      title: 'Additional Information',
      fields: [{ label: 'Additional Information', value: paragraph(lead.additionalInfo), wide: true }],
    },
    {
      title: 'Consent',
      fields: [
        // Not stored: the form cannot be sent without it, so every stored request agreed.
        { label: 'Terms of Service and Privacy Policy', value: text('Agreed') },
        { label: 'Product updates and marketing tips', value: text(lead.allowMarketing ? 'Yes' : 'No') },
      ],
    },
  ],
};

export function sectionsOf<K extends LeadKind>(kind: K, lead: LeadByKind[K]): LeadSection[] {
  return (leadSections[kind] as (lead: LeadByKind[K]) => LeadSection[])(lead);
}
