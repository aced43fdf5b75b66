import { Clock, Mail, Phone, ShieldCheck } from 'lucide-react';
import { brand } from '../../../api/contract/brand';
import { ContactForm } from '../../features/forms/components/contact-form';
import { PageHero } from '../../features/marketing/components/page-hero';

export function ContactPage() {
  return (
    <>
      <PageHero title="Contact Us">
        <p>Questions about pricing, a demo or your current site? Our dealership specialists are ready to help.</p>
      </PageHero>
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-[1fr_1.6fr] lg:px-8">
        <aside className="grid content-start gap-5">
          <div className="rounded-2xl border border-slate-200 p-6">
            <h2 className="text-lg font-bold text-slate-900">Get in touch</h2>
            <ul className="mt-5 grid gap-5 text-slate-700">
              <li className="flex gap-4">
                <Phone className="mt-0.5 size-5 shrink-0 text-brand" aria-hidden="true" />
                <div>
                  <p className="font-semibold text-slate-900">Phone</p>
                  <a href={brand.phoneHref} className="hover:text-brand">
                    {brand.phone}
                  </a>
                </div>
              </li>
              <li className="flex gap-4">
                <Mail className="mt-0.5 size-5 shrink-0 text-brand" aria-hidden="true" />
                <div>
                  <p className="font-semibold text-slate-900">Email</p>
                  <a href={`mailto:${brand.supportEmail}`} className="break-all hover:text-brand">
                    {brand.supportEmail}
                  </a>
                </div>
              </li>
              <li className="flex gap-4">
                <Clock className="mt-0.5 size-5 shrink-0 text-brand" aria-hidden="true" />
                <div>
                  <p className="font-semibold text-slate-900">Business Hours</p>
                  {brand.businessHours.map((line) => (
                    <p key={line}>{line}</p>
                  ))}
                </div>
              </li>
            </ul>
          </div>
          <div className="rounded-2xl bg-brand-light p-6">
            <h2 className="flex items-center gap-2 text-lg font-bold text-brand">
              <ShieldCheck className="size-5" aria-hidden="true" /> Quick Response Guarantee
            </h2>
            <p className="mt-2 text-slate-700">
              Every message gets a reply from a real person within 24 hours, and usually much sooner during business hours.
            </p>
          </div>
        </aside>
        <section aria-labelledby="contact-form-title" className="rounded-2xl border border-slate-200 p-6 shadow-sm sm:p-8">
          <h2 id="contact-form-title" className="text-2xl font-bold text-slate-900">
            Send us a Message
          </h2>
          <p className="mt-1 mb-6 text-sm text-slate-600">All fields are required.</p>
          <ContactForm />
        </section>
      </div>
    </>
  );
}
