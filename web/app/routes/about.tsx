import { Handshake, Lightbulb, Target } from 'lucide-react';
import { brand } from '../../../api/contract/brand';
import { ButtonLink } from '../../components/ui/button';
import { stats } from '../../features/marketing/content';
import { PageHero } from '../../features/marketing/components/page-hero';

const values = [
  {
    icon: Target,
    title: 'Results-Driven',
    text: 'We measure ourselves by the leads, appointments and sales we bring you, not by the features we ship.',
  },
  {
    icon: Lightbulb,
    title: 'Innovation',
    text: 'We put the newest AI to work for independent dealers first, without the price tag of enterprise software.',
  },
  {
    icon: Handshake,
    title: 'Partnership',
    text: 'Your success is our success. You get a real team that knows your store, your market and your goals.',
  },
] as const;

const leaders = [
  {
    name: 'Daniel Reyes',
    role: 'CEO and Founder',
    bio: 'Fifteen years running pre-owned lots in Central Texas before founding the company to give independents the tools big groups take for granted.',
  },
  {
    name: 'Aisha Thompson',
    role: 'CTO',
    bio: 'Built conversational AI and search products at scale; leads the platform that powers every dealer site and chat assistant.',
  },
  {
    name: 'Mark Sullivan',
    role: 'National Sales Director',
    bio: 'Has helped hundreds of dealerships modernise their marketing; makes sure every new client launches fast and grows.',
  },
] as const;

function initials(name: string) {
  return name
    .split(' ')
    .map((part) => part[0])
    .join('');
}

export function AboutPage() {
  return (
    <>
      <PageHero eyebrow={`About ${brand.product}`} title="Helping independent dealers win online">
        <p>
          We build AI-powered websites that let pre-owned dealerships compete with the biggest groups in town, at a price
          that makes sense for an independent lot.
        </p>
      </PageHero>

      <section className="mx-auto grid max-w-7xl gap-12 px-4 py-20 sm:px-6 lg:grid-cols-2 lg:px-8">
        <div>
          <h2 className="text-3xl font-extrabold tracking-tight text-slate-900">Our Mission</h2>
          <p className="mt-4 text-lg leading-8 text-slate-700">
            To give every independent pre-owned dealership a website that works as hard as its best salesperson: answering
            shoppers instantly, following up automatically and turning browsers into buyers, day and night.
          </p>
        </div>
        <div>
          <h2 className="text-3xl font-extrabold tracking-tight text-slate-900">Our Story</h2>
          <div className="mt-4 grid gap-4 text-lg leading-8 text-slate-700">
            <p>
              {brand.product} started on a used-car lot. Our founder was paying thousands a month for a dated website and a
              stack of plugins, while the leads went to the big dealer groups across town.
            </p>
            <p>
              We were born in the age of AI, without the legacy platforms and overhead of traditional vendors. That lets us
              launch a dealer site in 5-7 days on average and pass the savings on to our clients.
            </p>
          </div>
        </div>
      </section>

      <section aria-label="Results" className="bg-brand-light">
        <dl className="mx-auto grid max-w-7xl grid-cols-2 gap-8 px-4 py-14 sm:px-6 md:grid-cols-5 lg:px-8">
          {[...stats, { value: '5-7 Days', label: 'Average launch time' }].map((stat) => (
            <div key={stat.label} className="flex flex-col text-center">
              <dt className="mt-1 text-sm font-medium text-slate-700">{stat.label}</dt>
              <dd className="order-first text-3xl font-extrabold text-brand">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
        <h2 className="text-center text-3xl font-extrabold tracking-tight text-slate-900">Our Values</h2>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {values.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border border-slate-200 p-8 shadow-sm">
              <span className="inline-flex size-12 items-center justify-center rounded-xl bg-brand-light text-brand">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-xl font-bold text-slate-900">{title}</h3>
              <p className="mt-2 leading-7 text-slate-700">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="bg-slate-50 py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 className="text-center text-3xl font-extrabold tracking-tight text-slate-900">Our Leadership</h2>
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {leaders.map((leader) => (
              <li key={leader.name} className="rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
                <span
                  className="mx-auto flex size-20 items-center justify-center rounded-full bg-brand text-2xl font-bold text-white"
                  aria-hidden="true"
                >
                  {initials(leader.name)}
                </span>
                <h3 className="mt-5 text-lg font-bold text-slate-900">{leader.name}</h3>
                <p className="text-sm font-semibold text-cta-dark">{leader.role}</p>
                <p className="mt-3 text-sm leading-6 text-slate-700">{leader.bio}</p>
              </li>
            ))}
          </ul>
          <div className="mt-14 text-center">
            <ButtonLink to="/contact" variant="cta" size="lg">
              Talk to our team
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}
