import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Lead, LeadKind } from '../../../../api/contract/leads';
import { Toaster } from '../../../components/ui/toast';
import { AdminRoute } from '../test/admin-route';
import { advance, freshDashboard } from '../test/dashboard';
import { contactRow, demoRow, fakeServer, type FakeServer, getStartedRow, ticketRow } from '../test/fake-server';
import type { FakeAdminSocket } from '../test/fake-socket';

vi.mock('../api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('../api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

let socket: FakeAdminSocket;

beforeEach(() => {
  socket = freshDashboard();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function openAt(address: string): Promise<void> {
  render(
    <>
      <AdminRoute at={address} />
      <Toaster />
    </>,
  );
  await advance();
}

function address(): string {
  return screen.getByTestId('current-address').textContent ?? '';
}

/** The value shown beside a field's label. */
function field(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

/** Every field label the detail shows, but the time and page it came from. */
function fieldLabels(): string[] {
  return [...document.querySelectorAll('dt')].map((term) => term.textContent ?? '').filter((label) => label !== 'Received' && label !== 'Sent from');
}

function enUsDateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** The server holds `lead` in the list of its kind (the fake server answers its one-lead path from it). */
function serverWith(kind: LeadKind, ...leads: Lead[]): FakeServer {
  const server = fakeServer({ admin: 'staff@lotwise.example' });
  const list = { contact: '/api/contact-submissions', support: '/api/support-tickets', demo: '/api/demo-requests', 'get-started': '/api/get-started-requests' }[kind];
  server.on(`GET ${list}`, () => ({ body: leads }));
  return server;
}

const createdAt = '2026-11-20T15:30:00.000Z';

const everyField: { kind: LeadKind; lead: Lead; sender: string; title: string; page: string; fields: Record<string, string> }[] = [
  {
    kind: 'contact',
    lead: contactRow({
      id: 41,
      createdAt,
      name: 'Jane Doe',
      email: 'jane@doe-motors.example',
      company: 'Doe Motors',
      phone: '(512) 555-0100',
      subject: 'partnership',
      message: 'We run two lots.\nCan you take both?',
    }),
    sender: 'Jane Doe',
    title: 'Contact form #41',
    page: 'Contact page (/contact)',
    fields: {
      'Full Name': 'Jane Doe',
      'Email Address': 'jane@doe-motors.example',
      'Dealership Name': 'Doe Motors',
      'Phone Number': '(512) 555-0100',
      Subject: 'Partnership Opportunities',
      Message: 'We run two lots.\nCan you take both?',
    },
  },
  {
    kind: 'support',
    lead: ticketRow({
      id: 12,
      createdAt,
      name: 'Lee Park',
      email: 'lee@park-cars.example',
      company: 'Park Cars',
      priority: 'urgent',
      category: 'training',
      subject: 'Feed not updating',
      description: 'Our inventory feed stopped updating yesterday morning.',
    }),
    sender: 'Lee Park',
    title: 'Support ticket #12',
    page: 'Support page (/support)',
    fields: {
      'Full Name': 'Lee Park',
      'Email Address': 'lee@park-cars.example',
      'Dealership Name': 'Park Cars',
      Priority: 'Urgent',
      Category: 'Training/Setup',
      Subject: 'Feed not updating',
      Description: 'Our inventory feed stopped updating yesterday morning.',
    },
  },
  {
    kind: 'demo',
    lead: demoRow({ id: 7, createdAt, name: 'Dee Demo', company: 'Demo Cars', phone: '512-555-0190', message: 'Mornings are best.' }),
    sender: 'Dee Demo',
    title: 'Demo request #7',
    page: 'Home page, Request Demo dialog (/)',
    fields: {
      'Full Name': 'Dee Demo',
      'Email Address': 'dee@demo-cars.example',
      'Dealership Name': 'Demo Cars',
      Phone: '512-555-0190',
      Message: 'Mornings are best.',
    },
  },
  {
    kind: 'get-started',
    lead: getStartedRow({
      id: 3,
      createdAt,
      firstName: 'Ava',
      lastName: 'Stone',
      email: 'ava@stone.example',
      phone: '(512) 555-0111',
      dealershipName: 'Stone Pre-Owned',
      address: '100 Main Street Suite 4',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
      inventorySize: '100+',
      launchDate: '1-2-months',
      currentWebsite: 'https://stone.example',
      primaryGoals: ['Increase online leads', 'Other: A trade-in tool'],
      currentWebsiteProvider: 'DealerOn',
      currentStickerPhotoCompany: 'LotPix',
      currentFeedProvider: 'HomeNet',
      feedExportDestinations: ['CarGurus', 'Cars.com'],
      additionalFeedDestinations: 'OfferUp',
      additionalInfo: 'We also sell boats.',
      allowMarketing: true,
      plan: 'professional',
    }),
    sender: 'Ava Stone',
    title: 'Get started request #3',
    page: 'Get Started page (/get-started)',
    fields: {
      Plan: 'Professional ($199/month)',
      'First Name': 'Ava',
      'Last Name': 'Stone',
      'Email Address': 'ava@stone.example',
      'Phone Number': '(512) 555-0111',
      'Dealership Name': 'Stone Pre-Owned',
      'Street Address': '100 Main Street Suite 4',
      City: 'Austin',
      State: 'TX',
      'ZIP Code': '78701',
      'Current Website': 'https://stone.example',
      'Inventory Size': '100+ vehicles',
      'Preferred Launch Date': 'In 1-2 months',
      'Primary Goals': 'Increase online leadsOther: A trade-in tool',
      'Current Website Provider': 'DealerOn',
      'Current Sticker/Photo Company': 'LotPix',
      'Current Feed Provider': 'HomeNet',
      'Feed Export Destinations': 'CarGurusCars.com',
      'Additional Feed Destinations': 'OfferUp',
      'Additional Information': 'We also sell boats.',
      'Terms of Service and Privacy Policy': 'Agreed',
      'Product updates and marketing tips': 'Yes',
    },
  },
];

describe('a lead at /admin/leads/:kind/:id', () => {
  it.each(everyField)('shows every field of a $kind lead with the form labels and option names', async ({ kind, lead, sender, title, page, fields }) => {
    const server = serverWith(kind, { ...lead, status: 'contacted', note: 'Called on Monday' });
    await openAt(`/admin/leads/${kind}/${lead.id}`);

    expect(server.calls).toContain(`GET /api/leads/${kind}/${lead.id}`);
    expect(screen.getByRole('heading', { level: 2, name: sender })).toBeInTheDocument();
    expect(screen.getByText(title)).toBeInTheDocument();
    expect(fieldLabels()).toEqual(Object.keys(fields));
    for (const [label, value] of Object.entries(fields)) expect(field(label).textContent, label).toBe(value);
    expect(field('Received')).toHaveTextContent(enUsDateTime(createdAt));
    expect(field('Sent from')).toHaveTextContent(page);
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('contacted');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('Called on Monday');
    const back = screen.getByRole('link', { name: /^Back to / });
    expect(back).toHaveAttribute('href', kind === 'contact' ? '/admin' : `/admin?tab=${kind}`);
    // The lists are not shown under an open lead.
    expect(screen.queryByRole('tab', { name: 'Contact Forms' })).not.toBeInTheDocument();
  });

  it('keeps the line breaks of a message and links the email and phone', async () => {
    const { lead } = everyField[0]!;
    serverWith('contact', lead);
    await openAt('/admin/leads/contact/41');
    expect(field('Message').firstElementChild).toHaveClass('whitespace-pre-wrap');
    expect(within(field('Email Address')).getByRole('link')).toHaveAttribute('href', 'mailto:jane@doe-motors.example');
    expect(within(field('Phone Number')).getByRole('link')).toHaveAttribute('href', 'tel:5125550100');
  });

  it('says "Not given" for optional fields the dealer left empty', async () => {
    serverWith('demo', demoRow({ id: 8, phone: null, message: null }));
    await openAt('/admin/leads/demo/8');
    expect(field('Phone')).toHaveTextContent('Not given');
    expect(field('Message')).toHaveTextContent('Not given');
  });

  it('says clearly that an unknown id names no lead, with the way back to its list', async () => {
    const server = serverWith('support', ticketRow({ id: 12 }));
    await openAt('/admin/leads/support/999');
    expect(server.calls).toContain('GET /api/leads/support/999');
    expect(screen.getByRole('heading', { name: 'Lead not found' })).toBeInTheDocument();
    expect(screen.getByText('There is no support ticket #999. The link may be wrong or incomplete.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Support Tickets' })).toHaveAttribute('href', '/admin?tab=support');
  });

  it.each(['/admin/leads/orders/12', '/admin/leads/contact/abc', '/admin/leads/contact/0'])('says %s names no lead without asking the server', async (path) => {
    const server = fakeServer({ admin: 'staff@lotwise.example' });
    await openAt(path);
    expect(screen.getByRole('heading', { name: 'Lead not found' })).toBeInTheDocument();
    expect(server.calls.filter((call) => call.startsWith('GET /api/leads/'))).toEqual([]);
  });

  it('shows what a lead:updated push says, and ignores a push about another lead', async () => {
    const lead = ticketRow({ id: 12, updatedAt: '2026-11-20T16:00:00.000Z' });
    serverWith('support', lead);
    await openAt('/admin/leads/support/12');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('new');

    const later = '2026-11-21T11:00:00.000Z';
    act(() => socket.serverPush('lead:updated', { kind: 'support', item: { ...lead, id: 13, status: 'closed', note: 'Other', updatedAt: later } }));
    await advance();
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('new');

    act(() => socket.serverPush('lead:updated', { kind: 'support', item: { ...lead, status: 'closed', note: 'Fixed the feed', updatedAt: later } }));
    await advance();
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('closed');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('Fixed the feed');
  });

  it('keeps a note being typed when a push changes the lead', async () => {
    const lead = contactRow({ id: 41 });
    serverWith('contact', lead);
    await openAt('/admin/leads/contact/41');
    fireEvent.change(screen.getByRole('textbox', { name: 'Note' }), { target: { value: 'My draft' } });
    act(() => socket.serverPush('lead:updated', { kind: 'contact', item: { ...lead, status: 'contacted', note: 'Theirs', updatedAt: '2026-11-21T11:00:00.000Z' } }));
    await advance();
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('contacted');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('My draft');
  });

  it('reads the lead again after the socket reconnects', async () => {
    const server = serverWith('contact', contactRow({ id: 41 }));
    await openAt('/admin/leads/contact/41');
    const reads = () => server.calls.filter((call) => call === 'GET /api/leads/contact/41').length;
    const before = reads();
    act(() => socket.serverPush('connect'));
    await advance();
    expect(reads()).toBe(before + 1);
  });

  it('saves a status and a note with PATCH, and the list shows them', async () => {
    const lead = contactRow({ id: 41, name: 'Jane Doe' });
    const server = serverWith('contact', lead);
    let saved: Lead = lead;
    server.on('PATCH /api/leads/contact/41', ({ body }) => {
      saved = { ...saved, ...(body as object), updatedAt: '2026-11-21T12:00:01.000Z' };
      return { body: saved };
    });
    await openAt('/admin/leads/contact/41');

    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'contacted' } });
    await advance();
    expect(server.bodies).toContainEqual({ call: 'PATCH /api/leads/contact/41', body: { status: 'contacted' } });
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('contacted');

    const save = screen.getByRole('button', { name: 'Save note' });
    expect(save).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: 'Note' }), { target: { value: 'Demo on Friday' } });
    fireEvent.click(save);
    await advance();
    expect(server.bodies).toContainEqual({ call: 'PATCH /api/leads/contact/41', body: { note: 'Demo on Friday' } });
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('Demo on Friday');
    expect(screen.getByRole('button', { name: 'Save note' })).toBeDisabled();

    fireEvent.click(screen.getByRole('link', { name: 'Back to Contact Forms' }));
    await advance();
    expect(screen.getByRole('combobox', { name: 'Status of Jane Doe' })).toHaveValue('contacted');
    expect(screen.getByRole('textbox', { name: 'Note for Jane Doe' })).toHaveValue('Demo on Friday');
  });

  it('signed out, shows the sign-in card, then the lead once signed in', async () => {
    let signedIn = false;
    const server = serverWith('support', ticketRow({ id: 12, name: 'Lee Park' }));
    server.on('POST /api/admin-login', () => {
      signedIn = true;
      return { body: { message: 'ok', admin: { email: 'staff@lotwise.example' }, staffIdleMinutes: 10 } };
    });
    server.on('GET /api/session', () => ({ body: { admin: signedIn ? { email: 'staff@lotwise.example' } : null, dealer: null, staffIdleMinutes: 10 } }));
    await openAt('/admin/leads/support/12');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(server.calls).not.toContain('GET /api/leads/support/12');

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'staff@lotwise.example' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'staff-password-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await advance();
    expect(address()).toBe('/admin/leads/support/12');
    expect(screen.getByRole('heading', { level: 2, name: 'Lee Park' })).toBeInTheDocument();
  });
});

describe('rows of the lead lists open their lead', () => {
  function row(table: string, text: string): HTMLElement {
    return within(screen.getByRole('table', { name: table })).getByText(text).closest<HTMLElement>('[role="row"]')!;
  }

  it('on a click, and the way back returns to that list with the row focused', async () => {
    serverWith('support', ticketRow({ id: 12, name: 'Lee Park' }), ticketRow({ id: 11, name: 'Sam Support' }));
    await openAt('/admin?tab=support');
    expect(screen.getByRole('tab', { name: 'Support Tickets' })).toHaveAttribute('aria-selected', 'true');

    fireEvent.click(within(row('Support Tickets', 'Lee Park')).getByText('Lee Park'));
    await advance();
    expect(address()).toBe('/admin/leads/support/12');
    expect(screen.getByRole('heading', { level: 2, name: 'Lee Park' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('link', { name: 'Back to Support Tickets' }));
    await advance();
    expect(address()).toBe('/admin?tab=support');
    expect(screen.getByRole('tab', { name: 'Support Tickets' })).toHaveAttribute('aria-selected', 'true');
    expect(document.activeElement).toBe(row('Support Tickets', 'Lee Park'));
  });

  it.each(['Enter', ' '])('on %j when the row is focused', async (key) => {
    serverWith('contact', contactRow({ id: 41, name: 'Jane Doe' }));
    await openAt('/admin');
    const opened = row('Contact Forms', 'Jane Doe');
    expect(opened).toHaveAttribute('tabindex', '0');
    opened.focus();
    fireEvent.keyDown(opened, { key });
    await advance();
    expect(address()).toBe('/admin/leads/contact/41');
  });

  it('not when the click or the key is for a control in the row', async () => {
    serverWith('contact', contactRow({ id: 41, name: 'Jane Doe' }));
    await openAt('/admin');
    fireEvent.click(screen.getByRole('combobox', { name: 'Status of Jane Doe' }));
    const note = screen.getByRole('textbox', { name: 'Note for Jane Doe' });
    fireEvent.click(note);
    fireEvent.keyDown(note, { key: 'Enter' });
    fireEvent.keyDown(note, { key: ' ' });
    await advance();
    expect(address()).toBe('/admin');
  });

  it('switching tabs puts the tab in the address', async () => {
    fakeServer({ admin: 'staff@lotwise.example' });
    await openAt('/admin');
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Get Started Requests' }));
    await advance();
    expect(address()).toBe('/admin?tab=get-started');
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Contact Forms' }));
    await advance();
    expect(address()).toBe('/admin');
  });
});
