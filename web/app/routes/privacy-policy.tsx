import { Link } from 'react-router-dom';
import { brand } from '../../../api/contract/brand';
import { LegalContact, LegalPage, type LegalSection } from '../../features/marketing/components/legal-page';

const sections: readonly LegalSection[] = [
  {
    title: 'Who we are',
    body: (
      <p>
        {brand.product} builds and operates AI-powered websites for independent pre-owned car dealerships. We are the
        controller of the personal information described in this policy, which covers our own website, forms, chat and
        dealer dashboard. It does not cover the websites we run for our dealership clients, which have their own policies.
      </p>
    ),
  },
  {
    title: 'Information we collect',
    body: (
      <>
        <p>We collect only what we need to answer you and to provide our services:</p>
        <ul>
          <li>
            <strong>Information you give us in forms</strong>: your name, email address, phone number, dealership name
            and address, and what you write in a demo request, contact message, support ticket or Get Started application
            (including your inventory size, launch timeline, goals and current providers).
          </li>
          <li>
            <strong>Chat messages</strong>: what you type in our website chat, and the time you sent it.
          </li>
          <li>
            <strong>Account information</strong>: for dealers, a username, email address and a password, which we store
            only as a one-way cryptographic hash.
          </li>
          <li>
            <strong>Technical information</strong>: your IP address, browser type and the pages you visit, kept in server
            logs to operate and secure the site, and the cookies described in our <Link to="/cookie-policy">Cookie Policy</Link>.
          </li>
        </ul>
      </>
    ),
  },
  {
    title: 'How we use your information',
    body: (
      <ul>
        <li>To answer your questions, schedule demos and strategy calls, and resolve support tickets.</li>
        <li>To set up and run your dealership website and dashboard once you become a client.</li>
        <li>To send you product updates and marketing, only if you opted in; every message has an unsubscribe link.</li>
        <li>To keep the site secure: preventing spam, abuse and unauthorised access to accounts.</li>
        <li>To improve our website and services, using aggregated information where possible.</li>
      </ul>
    ),
  },
  {
    title: 'Legal bases',
    body: (
      <p>
        We process your information to take steps at your request before entering into a contract and to perform it; for
        our legitimate interests in answering enquiries, securing our services and improving them; with your consent for
        marketing and non-essential cookies, which you may withdraw at any time; and where the law requires us to.
      </p>
    ),
  },
  {
    title: 'Cookies',
    body: (
      <p>
        We use essential cookies to run the site and, only with your consent, analytics, functional and marketing cookies.
        Our <Link to="/cookie-policy">Cookie Policy</Link> lists each cookie, its purpose and how long it lasts, and
        explains how to change your choice.
      </p>
    ),
  },
  {
    title: 'Sharing your information',
    body: (
      <>
        <p>We do not sell or rent your personal information. We share it only with:</p>
        <ul>
          <li>
            Service providers who host our systems, deliver our email and, with your consent, provide analytics, chat and
            marketing-automation services, under contracts that limit their use of your data to our instructions.
          </li>
          <li>Professional advisers, and authorities where the law requires it.</li>
          <li>A buyer or successor, if our business is sold or merged, under this policy's protections.</li>
        </ul>
      </>
    ),
  },
  {
    title: 'How long we keep it',
    body: (
      <p>
        Enquiries, tickets and chat conversations are kept for up to 3 years after our last contact with you, then deleted
        or anonymised. Client account records are kept for the life of the contract and up to 7 years after, as tax and
        accounting law requires. Server logs are kept for up to 90 days.
      </p>
    ),
  },
  {
    title: 'Security',
    body: (
      <p>
        We protect your information with encryption in transit, hashed passwords, access limited to staff who need it,
        session time-outs for staff accounts and regular security reviews. No method of transmission or storage is
        perfectly secure, but we work to protect your data and will notify you of a breach as the law requires.
      </p>
    ),
  },
  {
    title: 'Your rights',
    body: (
      <>
        <p>
          Depending on where you live, you may have the right to access, correct, delete or receive a copy of your personal
          information, to object to or restrict certain processing, and to withdraw consent. Residents of states such as
          California, Colorado, Virginia and Texas have these rights under their state privacy laws.
        </p>
        <p>
          To exercise a right, email <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>. We will answer within
          45 days and will not treat you differently for exercising your rights.
        </p>
      </>
    ),
  },
  {
    title: 'Children',
    body: <p>Our services are for businesses and are not directed at children under 16. We do not knowingly collect their data.</p>,
  },
  {
    title: 'Changes to this policy',
    body: (
      <p>
        We will post any change on this page and update the date above. If a change is significant, we will tell clients by
        email before it takes effect.
      </p>
    ),
  },
  { title: 'Contact us', body: <LegalContact /> },
];

export function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro={
        <p>
          Your privacy matters to us. This policy explains what personal information {brand.product} collects when you use
          our website, why we collect it, how we protect it and the choices you have.
        </p>
      }
      sections={sections}
    />
  );
}
