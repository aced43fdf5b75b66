import { Link } from 'react-router-dom';
import { brand } from '../../../api/contract/brand';
import { LegalContact, LegalPage, type LegalSection } from '../../features/marketing/components/legal-page';
import { useCookieConsent } from '../../features/marketing/cookie-consent-store';
import { storageKeys } from '../../lib/storage-keys';

function ConsentChoice() {
  const consent = useCookieConsent((state) => state.consent);
  const reopen = useCookieConsent((state) => state.reopen);
  return (
    <p>
      Your current choice:{' '}
      <strong>{consent === null ? 'not made yet' : consent.analytics ? 'all cookies accepted' : 'essential cookies only'}</strong>.{' '}
      <button type="button" onClick={reopen} className="font-medium text-brand underline underline-offset-2 hover:text-brand-dark">
        Change your cookie settings
      </button>
    </p>
  );
}

const sections: readonly LegalSection[] = [
  {
    title: 'What cookies are',
    body: (
      <>
        <p>
          Cookies are small text files that a website stores in your browser. Similar technologies, such as your browser's
          local storage, work the same way. In this policy "cookies" covers both. They let a site remember you between
          pages and visits, keep you signed in, and understand how the site is used.
        </p>
      </>
    ),
  },
  {
    title: 'The types of cookies we use',
    body: (
      <>
        <ul>
          <li>
            <strong>Essential cookies</strong> make the site work: they keep you signed in to the dealer dashboard,
            protect forms against abuse, connect your chat conversation to your browser and remember your cookie choice.
            They are always on, because the site cannot work without them.
          </li>
          <li>
            <strong>Analytics cookies</strong> tell us how visitors use the site (pages viewed, time on page, where
            visitors came from) so we can improve it. They are set only if you accept them.
          </li>
          <li>
            <strong>Functional cookies</strong> remember preferences and enable enhanced features such as chat
            transcripts across devices. They are set only if you accept them.
          </li>
          <li>
            <strong>Marketing cookies</strong> measure the effect of our advertising and let a marketing-automation
            service tailor the messages we send. They are set only if you accept them.
          </li>
        </ul>
      </>
    ),
  },
  {
    title: 'Cookies and storage we set',
    body: (
      <div className="-mx-4 overflow-x-auto px-4" role="region" aria-label="Cookies we set" tabIndex={0}>
        <table className="min-w-[36rem]">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Purpose</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>lw_session</td>
              <td>Essential</td>
              <td>Keeps a dealer or staff member signed in.</td>
              <td>Up to 30 days; ends when you log out</td>
            </tr>
            <tr>
              <td>lw_visitor</td>
              <td>Essential</td>
              <td>Links your chat conversation to your browser so only you can read it.</td>
              <td>13 months</td>
            </tr>
            <tr>
              <td>{storageKeys.chatSessionId} (local storage)</td>
              <td>Essential</td>
              <td>Identifies your chat conversation so it continues across pages.</td>
              <td>Until you clear your browser storage</td>
            </tr>
            <tr>
              <td>{storageKeys.chatVisitPages} (session storage)</td>
              <td>Essential</td>
              <td>Lists the pages you have seen on this visit (without their query), sent with your first chat message so we can help.</td>
              <td>Until you close the tab</td>
            </tr>
            <tr>
              <td>{storageKeys.cookieConsent} (local storage)</td>
              <td>Essential</td>
              <td>Remembers the choice you made in the cookie banner.</td>
              <td>Until you change it or clear your browser storage</td>
            </tr>
            <tr>
              <td>{storageKeys.dealerApplication} (local storage)</td>
              <td>Essential</td>
              <td>Keeps a copy of your Get Started application to complete setup and payment.</td>
              <td>Until you clear your browser storage</td>
            </tr>
          </tbody>
        </table>
      </div>
    ),
  },
  {
    title: 'Third-party cookies',
    body: (
      <>
        <p>
          With your consent, we may work with three kinds of third-party providers that set their own cookies: an
          analytics service (to measure site usage), a chat service (to provide enhanced chat features) and a
          marketing-automation service (to send relevant follow-ups). These providers process data on our behalf under
          written agreements.
        </p>
        <p>
          We load no third-party cookie, script or pixel until you accept the matching category. If you choose
          "Reject non-essential", none are loaded.
        </p>
      </>
    ),
  },
  {
    title: 'How long cookies last',
    body: (
      <>
        <p>
          Session cookies are deleted when you close your browser. Persistent cookies stay until they expire or you delete
          them, for at most 2 years. Analytics cookies last about 26 months; marketing cookies between 30 and 90 days. The
          table above gives the duration of each cookie we set ourselves.
        </p>
      </>
    ),
  },
  {
    title: 'Your choices and the consent banner',
    body: (
      <>
        <p>
          On your first visit a banner asks for your consent. You can accept all cookies or reject the non-essential ones;
          essential cookies stay on in both cases. We remember your choice, and you can change it at any time with the
          Cookie Settings link at the bottom of every page.
        </p>
        <ConsentChoice />
        <p>
          You can also block or delete cookies in your browser's settings. Blocking essential cookies will stop parts of
          the site, such as the dealer login and the chat, from working.
        </p>
      </>
    ),
  },
  {
    title: 'Changes to this policy',
    body: (
      <p>
        We may update this policy when our use of cookies changes. The date at the top shows when it was last revised. See
        also our <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>
    ),
  },
  { title: 'Contact us', body: <LegalContact /> },
];

export function CookiePolicyPage() {
  return (
    <LegalPage
      title="Cookie Policy"
      intro={
        <p>
          This policy explains how {brand.product} uses cookies and similar technologies on its website, which types we
          use, and how you can control them.
        </p>
      }
      sections={sections}
    />
  );
}
