import { BarChart3, Mail, Phone, Sparkles, Users, Warehouse } from 'lucide-react';
import { Link } from 'react-router-dom';
import { brand } from '../../../api/contract/brand';
import { buttonClasses } from '../../components/ui/button';
import { DealerLoginCard } from '../../features/dealer/components/dealer-login-form';
import { useSignedInDealerRedirect } from '../../features/dealer/use-signed-in-redirect';

const highlights = [
  { icon: BarChart3, title: 'Dashboard Analytics', text: 'Visitors, chats and conversions at a glance.' },
  { icon: Users, title: 'Lead Management', text: 'Every lead from your site, chat and forms in one list.' },
  { icon: Warehouse, title: 'Inventory Control', text: 'Add, edit and price vehicles in seconds.' },
  { icon: Sparkles, title: 'AI Enhancements', text: 'AI-written descriptions and smart follow-ups.' },
] as const;

export function DealerLoginPage() {
  useSignedInDealerRedirect();
  return (
    <div className="bg-slate-50">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-2 lg:px-8">
        <div className="grid content-start gap-6">
          <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
            <DealerLoginCard />
          </div>
          <section aria-labelledby="help-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <h2 id="help-title" className="font-bold text-slate-900">
              Need Help?
            </h2>
            <p className="mt-1 text-sm text-slate-600">Our dealer support line is open 24/7.</p>
            <ul className="mt-4 grid gap-2 text-sm text-slate-700">
              <li className="flex items-center gap-2">
                <Phone className="size-4 text-brand" aria-hidden="true" />
                <a href={brand.phoneHref} className="hover:text-brand">
                  {brand.phone}
                </a>
              </li>
              <li className="flex items-center gap-2">
                <Mail className="size-4 text-brand" aria-hidden="true" />
                <a href={`mailto:${brand.supportEmail}`} className="hover:text-brand">
                  {brand.supportEmail}
                </a>
              </li>
            </ul>
            <Link to="/support" className="mt-4 inline-block text-sm font-semibold text-brand hover:underline">
              Visit the Support Center
            </Link>
          </section>
        </div>
        <section aria-labelledby="dealer-marketing-title" className="relative overflow-hidden rounded-2xl bg-brand p-8 text-white sm:p-10">
          <div
            className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_90%_10%,rgba(220,38,38,0.4),transparent_45%)]"
            aria-hidden="true"
          />
          <div className="relative">
            <h2 id="dealer-marketing-title" className="text-3xl font-extrabold tracking-tight">
              Everything your dealership needs, in one place
            </h2>
            <p className="mt-3 text-indigo-50">Your {brand.product} dashboard puts your website to work for you.</p>
            <ul className="mt-8 grid gap-6">
              {highlights.map(({ icon: Icon, title, text }) => (
                <li key={title} className="flex gap-4">
                  <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-white/15">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <div>
                    <h3 className="font-semibold">{title}</h3>
                    <p className="text-sm text-indigo-50">{text}</p>
                  </div>
                </li>
              ))}
            </ul>
            <p className="mt-8 text-sm text-indigo-50">Not a client yet? Launch your AI-powered website in days.</p>
            <Link to="/get-started" className={buttonClasses('cta', 'lg', 'mt-4')}>
              Get Started
            </Link>
          </div>
        </section>
      </div>
    </div>
  );
}
