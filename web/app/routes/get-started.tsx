import { Rocket } from 'lucide-react';
import { GetStartedForm } from '../../features/forms/components/get-started-form';
import { PageHero } from '../../features/marketing/components/page-hero';

const steps = [
  { title: 'Submit Application', text: 'Tell us about your dealership and your goals. It takes about five minutes.' },
  { title: 'Strategy Call', text: '30-minute consultation to plan your site, inventory feed and lead routing.' },
  { title: 'Custom Setup', text: 'We build your site, train your AI assistant and connect your inventory.' },
  { title: 'Launch & Training', text: 'Go live and get your team comfortable with the dashboard and leads.' },
] as const;

export function GetStartedPage() {
  return (
    <>
      <PageHero eyebrow="Get Started" title="Launch your AI-powered dealer website">
        <p>Complete the application below and our team will reach out within 24 hours to schedule your strategy call.</p>
      </PageHero>
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-[1.7fr_1fr] lg:px-8">
        <div className="rounded-2xl border border-slate-200 p-6 shadow-sm sm:p-8 lg:self-start">
          <GetStartedForm />
        </div>
        <aside className="grid content-start gap-6 lg:sticky lg:top-24 lg:self-start">
          <section aria-labelledby="steps-title" className="rounded-2xl border border-slate-200 p-6">
            <h2 id="steps-title" className="text-lg font-bold text-slate-900">
              What happens next
            </h2>
            <ol className="mt-5 grid gap-5">
              {steps.map((step, index) => (
                <li key={step.title} className="flex gap-4">
                  <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand text-sm font-bold text-white">
                    {index + 1}
                  </span>
                  <div>
                    <h3 className="font-semibold text-slate-900">{step.title}</h3>
                    <p className="mt-1 text-sm text-slate-600">{step.text}</p>
                  </div>
                </li>
              ))}
            </ol>
          </section>
          <section className="rounded-2xl bg-brand p-6 text-white">
            <h2 className="flex items-center gap-2 text-lg font-bold">
              <Rocket className="size-5" aria-hidden="true" /> Quick Launch Guarantee
            </h2>
            <p className="mt-2 text-indigo-50">
              Most dealerships are live in 7-14 days from application. We handle the heavy lifting so you can keep selling.
            </p>
          </section>
        </aside>
      </div>
    </>
  );
}
