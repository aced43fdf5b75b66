import { CalendarCheck, MessageSquareText, Zap } from 'lucide-react';
import { lazy, type MouseEvent, Suspense, useRef, useState } from 'react';
import { brand } from '../../../api/contract/brand';
import { Button, ButtonLink } from '../../components/ui/button';
import { showTestimonials, stats } from '../../features/marketing/content';
import { PricingSection } from '../../features/marketing/components/pricing-section';
import { TestimonialsSection } from '../../features/marketing/components/testimonials-section';

const loadDemoDialog = () => import('../../features/forms/components/demo-request-dialog');
const DemoRequestDialog = lazy(() => loadDemoDialog().then((module) => ({ default: module.DemoRequestDialog })));

export function HomePage() {
  const [demoOpen, setDemoOpen] = useState(false);
  const [demoLoaded, setDemoLoaded] = useState(false);
  // The Request Demo button that opened the dialog: focus goes back to it when the dialog closes.
  const demoOpener = useRef<HTMLElement | null>(null);
  const openDemo = (event: MouseEvent<HTMLElement>) => {
    demoOpener.current = event.currentTarget;
    setDemoLoaded(true);
    setDemoOpen(true);
  };
  // Fetch the dialog's code as soon as the visitor shows intent, so it opens at once.
  const preloadDemo = () => void loadDemoDialog();

  const demoButtonProps = { onClick: openDemo, onPointerEnter: preloadDemo, onFocus: preloadDemo };

  return (
    <>
      <section className="relative overflow-hidden bg-slate-950 text-white">
        <div
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(51,51,153,0.75),transparent_55%),radial-gradient(ellipse_at_bottom_left,rgba(220,38,38,0.25),transparent_50%)]"
          aria-hidden="true"
        />
        {/* Tighter on a phone: the hero's buttons stay in sight above the cookie banner at 375x667. */}
        <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 pt-8 pb-16 sm:px-6 sm:py-24 lg:grid-cols-[1.15fr_1fr] lg:px-8">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-indigo-100 ring-1 ring-white/20">
              <Zap className="size-4 text-red-300" aria-hidden="true" /> Live in as fast as 5 days
            </p>
            <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-balance sm:mt-6 sm:text-5xl lg:text-6xl">
              The AI-powered dealer website that sells more cars
            </h1>
            <p className="mt-4 max-w-xl text-base leading-7 text-slate-200 sm:mt-6 sm:text-lg sm:leading-8">
              Lead generation and automated customer communication built for independent pre-owned dealerships, from as
              little as $2 per car.
            </p>
            <div className="mt-6 grid grid-cols-2 gap-3 sm:mt-8 sm:flex">
              <Button variant="cta" size="lg" className="max-sm:px-3" {...demoButtonProps}>
                Request Demo
              </Button>
              <ButtonLink to="/get-started" variant="light" size="lg" className="max-sm:px-3">
                Get Started
              </ButtonLink>
            </div>
          </div>

          <div className="relative mx-auto w-full max-w-md" aria-hidden="true">
            <div className="rounded-2xl bg-white p-5 text-slate-900 shadow-2xl ring-1 ring-white/10">
              <div className="flex items-center justify-between">
                <p className="text-sm font-semibold">Today on your site</p>
                <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">Live</span>
              </div>
              <div className="mt-4 grid grid-cols-3 gap-3 text-center">
                <div className="rounded-lg bg-slate-50 p-3">
                  <p className="text-xl font-bold text-brand">1,284</p>
                  <p className="text-xs text-slate-600">Visitors</p>
                </div>
                <div className="rounded-lg bg-slate-50 p-3">
                  <p className="text-xl font-bold text-brand">46</p>
                  <p className="text-xs text-slate-600">AI chats</p>
                </div>
                <div className="rounded-lg bg-slate-50 p-3">
                  <p className="text-xl font-bold text-cta-dark">18</p>
                  <p className="text-xs text-slate-600">New leads</p>
                </div>
              </div>
              <div className="mt-4 grid gap-2 text-sm">
                <p className="max-w-[85%] rounded-2xl rounded-bl-sm bg-slate-100 px-3 py-2">Is the 2019 Tacoma still available?</p>
                <p className="ml-auto max-w-[85%] rounded-2xl rounded-br-sm bg-brand px-3 py-2 text-white">
                  Yes! It has 41k miles. Want to book a test drive for Saturday?
                </p>
              </div>
              <p className="mt-4 flex items-center gap-2 text-xs text-slate-600">
                <CalendarCheck className="size-4 text-emerald-600" /> Test drive booked, lead sent to your CRM
              </p>
            </div>
          </div>
        </div>
        <dl className="relative mx-auto grid max-w-7xl grid-cols-2 gap-6 border-t border-white/10 px-4 py-10 sm:px-6 md:grid-cols-4 lg:px-8">
          {stats.map((stat) => (
            <div key={stat.label} className="flex flex-col">
              <dt className="text-sm text-slate-300">{stat.label}</dt>
              <dd className="order-first text-3xl font-extrabold tracking-tight text-white">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      {showTestimonials ? <TestimonialsSection /> : null}

      <PricingSection />

      <section aria-labelledby="cta-title" className="bg-white py-20 sm:py-24">
        <div className="mx-auto max-w-4xl px-4 text-center sm:px-6 lg:px-8">
          <MessageSquareText className="mx-auto size-10 text-brand" aria-hidden="true" />
          <h2 id="cta-title" className="mt-4 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
            Ready to talk? Call{' '}
            <a href={brand.phoneHref} className="whitespace-nowrap text-brand underline decoration-2 underline-offset-4 hover:text-brand-dark">
              {brand.phone}
            </a>
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
            Join 350+ dealerships that sell more cars with an AI-powered website. Most are live within a week.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink to="/get-started" variant="cta" size="lg">
              Start Now
            </ButtonLink>
            <Button variant="outline" size="lg" {...demoButtonProps}>
              Request Demo
            </Button>
          </div>
        </div>
      </section>

      {demoLoaded ? (
        <Suspense fallback={null}>
          <DemoRequestDialog
            open={demoOpen}
            onOpenChange={setDemoOpen}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              demoOpener.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
