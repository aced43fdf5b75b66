import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './support/test';
import { postLead, signIn, staff, uniqueName } from './support/admin';

/** One lead of each kind, every optional field filled, and what its detail must show for each label. */
function leadsToSend() {
  const contactName = uniqueName('Jane Contact');
  const ticketName = uniqueName('Lee Ticket');
  const demoName = uniqueName('Dee Demo');
  const firstName = uniqueName('Ava');
  return [
    {
      kind: 'contact',
      tab: 'Contact Forms',
      path: '/api/contact-submission',
      rowText: contactName,
      body: {
        name: contactName,
        email: 'jane@doe-motors.example',
        company: 'Doe Motors',
        phone: '(512) 555-0100',
        subject: 'partnership',
        message: 'We run two lots in Austin and want one site for both of them.',
      },
      page: 'Contact page (/contact)',
      fields: {
        'Full Name': contactName,
        'Email Address': 'jane@doe-motors.example',
        'Dealership Name': 'Doe Motors',
        'Phone Number': '(512) 555-0100',
        Subject: 'Partnership Opportunities',
        Message: 'We run two lots in Austin and want one site for both of them.',
      },
    },
    {
      kind: 'support',
      tab: 'Support Tickets',
      path: '/api/support-ticket',
      rowText: ticketName,
      body: {
        name: ticketName,
        email: 'lee@park-cars.example',
        company: 'Park Cars',
        priority: 'urgent',
        category: 'training',
        subject: 'Feed not updating',
        description: 'Our inventory feed stopped updating yesterday morning.',
      },
      page: 'Support page (/support)',
      fields: {
        'Full Name': ticketName,
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
      tab: 'Demo Requests',
      path: '/api/demo-request',
      rowText: demoName,
      body: { name: demoName, email: 'dee@demo-cars.example', company: 'Demo Cars', phone: '(512) 555-0190', message: 'Mornings are best.' },
      page: 'Home page, Request Demo dialog (/)',
      fields: {
        'Full Name': demoName,
        'Email Address': 'dee@demo-cars.example',
        'Dealership Name': 'Demo Cars',
        Phone: '(512) 555-0190',
        Message: 'Mornings are best.',
      },
    },
    {
      kind: 'get-started',
      tab: 'Get Started Requests',
      path: '/api/get-started-request',
      rowText: `${firstName} Stone`,
      body: {
        firstName,
        lastName: 'Stone',
        email: 'ava.stone.with.a.rather.long.address@stone-pre-owned-motors.example',
        phone: '(512) 555-0111',
        dealershipName: 'Stone Pre-Owned',
        address: '100 Main Street Suite 4',
        city: 'Austin',
        state: 'TX',
        zipCode: '78701',
        inventorySize: '100+',
        launchDate: '1-2-months',
        currentWebsite: 'https://www.stone-pre-owned-motors-of-central-texas.example/inventory/used-cars',
        primaryGoals: ['Increase online leads', 'Mobile-friendly website', 'Other: A trade-in tool'],
        currentWebsiteProvider: 'DealerOn',
        currentStickerPhotoCompany: 'LotPix',
        currentFeedProvider: 'HomeNet',
        feedExportDestinations: ['CarGurus', 'Cars.com'],
        additionalFeedDestinations: 'OfferUp',
        additionalInfo: 'We also sell boats.',
        allowMarketing: true,
        agreeToTerms: true,
      },
      page: 'Get Started page (/get-started)',
      fields: {
        'First Name': firstName,
        'Last Name': 'Stone',
        'Email Address': 'ava.stone.with.a.rather.long.address@stone-pre-owned-motors.example',
        'Phone Number': '(512) 555-0111',
        'Dealership Name': 'Stone Pre-Owned',
        'Street Address': '100 Main Street Suite 4',
        City: 'Austin',
        State: 'TX',
        'ZIP Code': '78701',
        'Current Website': 'https://www.stone-pre-owned-motors-of-central-texas.example/inventory/used-cars',
        'Inventory Size': '100+ vehicles',
        'Preferred Launch Date': 'In 1-2 months',
        'Primary Goals': ['Increase online leads', 'Mobile-friendly website', 'Other: A trade-in tool'],
        'Current Website Provider': 'DealerOn',
        'Current Sticker/Photo Company': 'LotPix',
        'Current Feed Provider': 'HomeNet',
        'Feed Export Destinations': ['CarGurus', 'Cars.com'],
        'Additional Feed Destinations': 'OfferUp',
        'Additional Information': 'We also sell boats.',
        'Terms of Service and Privacy Policy': 'Agreed',
        'Product updates and marketing tips': 'Yes',
      },
    },
  ] as const;
}

type SentLead = ReturnType<typeof leadsToSend>[number];

/** The value beside a field's label in the open lead. */
function field(page: Page, label: string): Locator {
  return page.locator(`xpath=//dt[normalize-space(.)="${label}"]/following-sibling::dd[1]`);
}

async function expectEveryField(page: Page, lead: SentLead): Promise<void> {
  for (const [label, value] of Object.entries(lead.fields)) {
    if (Array.isArray(value)) await expect(field(page, label).locator('li'), label).toHaveText(value);
    else await expect(field(page, label), label).toHaveText(value);
  }
  await expect(field(page, 'Received')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/);
  await expect(field(page, 'Sent from')).toHaveText(lead.page);
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('new');
  await expect(page.getByRole('textbox', { name: 'Note' })).toHaveValue('');
}

/** Nothing on the page is wider than the window: no sideways scrolling. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
}

for (const { width, height, name } of [
  { width: 1280, height: 900, name: 'desktop' },
  { width: 375, height: 812, name: 'phone' },
]) {
  test(`every lead opens from its list, shows every field, and deep links reload (${width} px)`, async ({ page, request }) => {
    test.setTimeout(60_000);
    const leads = leadsToSend();
    for (const lead of leads) await postLead(request, lead.path, lead.body);
    mkdirSync('test-results/screenshots', { recursive: true });
    await page.setViewportSize({ width, height });
    await signIn(page);

    for (const lead of leads) {
      await page.getByRole('tab', { name: lead.tab }).click();
      const table = page.getByRole('table', { name: lead.tab });
      await table.getByRole('row').filter({ hasText: lead.rowText }).getByText(lead.rowText).click();
      await expect(page).toHaveURL(new RegExp(`/admin/leads/${lead.kind}/\\d+$`));
      await expect(page.getByRole('heading', { level: 2 })).toHaveText(lead.kind === 'get-started' ? lead.rowText : lead.fields['Full Name']);
      await expectEveryField(page, lead);
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: `test-results/screenshots/admin-lead-${lead.kind}-${name}.png`, fullPage: true });

      await page.getByRole('link', { name: `Back to ${lead.tab}` }).click();
      await expect(page.getByRole('tab', { name: lead.tab })).toHaveAttribute('aria-selected', 'true');
      // The row that was opened has the focus back, so Enter opens it again.
      const row = table.getByRole('row').filter({ hasText: lead.rowText });
      await expect(row).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/admin/leads/${lead.kind}/\\d+$`));

      // A deep link survives a reload.
      await page.reload();
      await expect(page.getByRole('heading', { level: 2 })).toHaveText(lead.kind === 'get-started' ? lead.rowText : lead.fields['Full Name']);
      await expectEveryField(page, lead);
      await page.getByRole('link', { name: `Back to ${lead.tab}` }).click();
    }
  });
}

test('a deep link opened signed out shows the sign-in card, then the lead; a change elsewhere shows live', async ({ page, request }) => {
  const [, ticket] = leadsToSend();
  await postLead(request, ticket.path, ticket.body);
  await signIn(page);
  await page.getByRole('tab', { name: ticket.tab }).click();
  await page.getByRole('table', { name: ticket.tab }).getByText(ticket.rowText).click();
  await expect(page).toHaveURL(/\/admin\/leads\/support\/\d+$/);
  const deepLink = page.url();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await page.goto(deepLink);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await page.getByLabel('Email').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(deepLink);
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(ticket.rowText);
  await expect(field(page, 'Description')).toHaveText(ticket.fields.Description);

  // Another staff member's change arrives as a lead:updated push.
  const id = deepLink.split('/').at(-1);
  const other = await page.context().browser()!.newContext();
  try {
    const login = await other.request.post(new URL('/api/admin-login', deepLink).href, { data: { username: staff.email, password: staff.password } });
    expect(login.status()).toBe(200);
    const patched = await other.request.patch(new URL(`/api/leads/support/${id}`, deepLink).href, { data: { status: 'closed', note: 'Feed fixed' } });
    expect(patched.status()).toBe(200);
  } finally {
    await other.close();
  }
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('closed');
  await expect(page.getByRole('textbox', { name: 'Note' })).toHaveValue('Feed fixed');

  // An id that names no lead says so.
  await page.goto(new URL('/admin/leads/support/2147483647', deepLink).href);
  await expect(page.getByRole('heading', { name: 'Lead not found' })).toBeVisible();
  await expect(page.getByText('There is no support ticket #2147483647.')).toBeVisible();
});
