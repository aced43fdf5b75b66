import { Link } from 'react-router-dom';
import { brand } from '../../../api/contract/brand';
import { LegalContact, LegalPage, type LegalSection } from '../../features/marketing/components/legal-page';

const sections: readonly LegalSection[] = [
  {
    title: 'Acceptance of these terms',
    body: (
      <p>
        By using the {brand.product} website or subscribing to our services, you agree to these Terms of Service. If you
        accept them on behalf of a dealership, you confirm that you are authorised to bind it.
      </p>
    ),
  },
  {
    title: 'Our services',
    body: (
      <p>
        {brand.product} provides AI-powered websites and related services for pre-owned vehicle dealerships, including
        website design and hosting, an AI chat assistant, inventory display and feed exports, lead capture and automated
        customer follow-up. Features are described on our website and may improve over time.
      </p>
    ),
  },
  {
    title: 'Accounts',
    body: (
      <p>
        You are responsible for keeping your dashboard credentials confidential and for everything done under your
        account. Tell us at once if you believe your account has been used without permission.
      </p>
    ),
  },
  {
    title: 'Pricing and billing',
    body: (
      <>
        <ul>
          <li>
            Plans are priced per month by inventory size (number of vehicles), as shown on our pricing page, and work out
            per vehicle on your lot.
          </li>
          <li>Fees are billed in advance, monthly or annually, according to the plan you choose.</li>
          <li>Setup fees, where they apply, are non-refundable once setup work has started.</li>
          <li>
            If your inventory grows beyond your plan's limit, we will propose the matching plan; price changes take effect
            at the start of the next billing period, with at least 30 days' notice.
          </li>
          <li>Fees are exclusive of taxes, which are added where required.</li>
        </ul>
      </>
    ),
  },
  {
    title: 'Cancellation',
    body: (
      <p>
        You may cancel at any time; cancellation takes effect at the end of the period already paid for, and fees already
        paid are not refunded except where the law requires. On request within 30 days of cancellation we will export your
        inventory data and leads.
      </p>
    ),
  },
  {
    title: 'Your content and data',
    body: (
      <p>
        You keep ownership of your inventory data, photos, logos and leads. You grant us the licence needed to host and
        display them and to operate your site. You confirm that your content is accurate, lawful and complies with
        advertising rules for motor vehicle sales. Our handling of personal information is described in our{' '}
        <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>
    ),
  },
  {
    title: 'Acceptable use',
    body: (
      <p>
        You may not use our services to send spam, publish misleading vehicle listings, infringe others' rights, attempt to
        gain unauthorised access to our systems, or interfere with their operation.
      </p>
    ),
  },
  {
    title: 'AI-generated content',
    body: (
      <p>
        Our AI assistant and AI-generated dealer comments are designed to help your customers, but they can make mistakes.
        You remain responsible for the prices, availability and terms you offer, and should review AI-generated content
        that describes your vehicles.
      </p>
    ),
  },
  {
    title: 'Availability and support',
    body: (
      <p>
        We aim to keep your website available around the clock and provide 24/7 support for urgent issues. Planned
        maintenance is announced in advance where possible.
      </p>
    ),
  },
  {
    title: 'Limitation of liability',
    body: (
      <p>
        To the extent the law allows, {brand.product} is not liable for indirect or consequential losses, including lost
        sales or profits, and our total liability in any 12-month period is limited to the fees you paid us in that period.
      </p>
    ),
  },
  {
    title: 'Governing law',
    body: (
      <p>
        These terms are governed by the laws of the State of Texas. Any dispute will be resolved in the state or federal
        courts located in Austin, Texas, and both parties consent to their jurisdiction.
      </p>
    ),
  },
  {
    title: 'Changes to these terms',
    body: <p>We may update these terms. Significant changes are emailed to clients at least 30 days before they apply.</p>,
  },
  { title: 'Contact us', body: <LegalContact /> },
];

export function TermsOfServicePage() {
  return (
    <LegalPage
      title="Terms of Service"
      intro={
        <p>
          These terms govern your use of the {brand.product} website and the services we provide to pre-owned vehicle
          dealerships.
        </p>
      }
      sections={sections}
    />
  );
}
