import { Mail, MessageCircle, Phone } from 'lucide-react';
import { brand } from '../../../api/contract/brand';
import { buttonClasses } from '../../components/ui/button';
import { SupportTicketForm } from '../../features/forms/components/support-ticket-form';
import { openChat } from '../../features/chat';
import { PageHero } from '../../features/marketing/components/page-hero';
import { supportFaqs } from '../../features/marketing/routes';

export function SupportPage() {
  return (
    <>
      <PageHero title="Support Center">
        <p>We're here 24/7 to keep your website selling. Reach us the way that suits you, or open a ticket below.</p>
      </PageHero>
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <ul className="grid gap-6 md:grid-cols-3">
          <li className="flex flex-col rounded-2xl border border-slate-200 p-6 shadow-sm">
            <MessageCircle className="size-8 text-brand" aria-hidden="true" />
            <h2 className="mt-4 text-lg font-bold text-slate-900">Live Chat</h2>
            <p className="mt-2 flex-1 text-slate-700">Chat with a support specialist right now for quick answers.</p>
            <button type="button" className={buttonClasses('brand', 'md', 'mt-5')} onClick={() => openChat()}>
              Start Live Chat
            </button>
          </li>
          <li className="flex flex-col rounded-2xl border border-slate-200 p-6 shadow-sm">
            <Phone className="size-8 text-brand" aria-hidden="true" />
            <h2 className="mt-4 text-lg font-bold text-slate-900">Phone Support</h2>
            <p className="mt-2 flex-1 text-slate-700">Talk to our team. Urgent issues are answered 24/7.</p>
            <a href={brand.phoneHref} className={buttonClasses('outline', 'md', 'mt-5')}>
              {brand.phone}
            </a>
          </li>
          <li className="flex flex-col rounded-2xl border border-slate-200 p-6 shadow-sm">
            <Mail className="size-8 text-brand" aria-hidden="true" />
            <h2 className="mt-4 text-lg font-bold text-slate-900">Email Support</h2>
            <p className="mt-2 flex-1 text-slate-700">Send us the details and we'll get back to you within 24 hours.</p>
            <a href={`mailto:${brand.supportEmail}`} className={buttonClasses('outline', 'md', 'mt-5 break-all whitespace-normal')}>
              {brand.supportEmail}
            </a>
          </li>
        </ul>

        <section aria-labelledby="faq-title" className="mx-auto mt-16 max-w-3xl">
          <h2 id="faq-title" className="text-2xl font-bold text-slate-900">
            Frequently asked questions
          </h2>
          <dl className="mt-6 divide-y divide-slate-200 border-y border-slate-200">
            {supportFaqs.map((item) => (
              <div key={item.question} className="py-5">
                <dt className="font-semibold text-slate-900">{item.question}</dt>
                <dd className="mt-2 text-slate-700">{item.answer}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section aria-labelledby="ticket-title" className="mx-auto mt-16 max-w-3xl rounded-2xl border border-slate-200 p-6 shadow-sm sm:p-8">
          <h2 id="ticket-title" className="text-2xl font-bold text-slate-900">
            Create Support Ticket
          </h2>
          <p className="mt-1 mb-6 text-sm text-slate-600">Tell us what's going on and we'll get right on it.</p>
          <SupportTicketForm />
        </section>
      </div>
    </>
  );
}
