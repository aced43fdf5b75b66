import type { ReactNode } from 'react';
import { brand } from '../../../../api/contract/brand';

export interface LegalSection {
  title: string;
  body: ReactNode;
}

/** The shared layout of the three legal pages: title, date, sections with a table of contents. */
export function LegalPage({ title, intro, sections }: { title: string; intro: ReactNode; sections: readonly LegalSection[] }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-3 text-sm text-slate-600">Last updated {brand.legalLastUpdated}</p>
      <div className="mt-8 text-lg leading-8 text-slate-700">{intro}</div>
      <nav aria-label="On this page" className="mt-10 rounded-2xl bg-slate-50 p-6">
        <h2 className="text-sm font-semibold tracking-wide text-slate-900 uppercase">On this page</h2>
        <ol className="mt-3 grid list-decimal gap-1.5 pl-5 text-sm text-slate-700 sm:grid-cols-2">
          {sections.map((section, index) => (
            <li key={section.title}>
              <a href={`#section-${index + 1}`} className="hover:text-brand hover:underline">
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section key={section.title} id={`section-${index + 1}`} className="mt-12 scroll-mt-24">
          <h2 className="text-2xl font-bold text-slate-900">
            {index + 1}. {section.title}
          </h2>
          <div className="legal-body mt-4 grid gap-4 leading-7 text-slate-700">{section.body}</div>
        </section>
      ))}
    </article>
  );
}

/** How to reach the company, at the end of each legal page. */
export function LegalContact() {
  return (
    <>
      <p>Questions about this document can be sent to:</p>
      <address className="not-italic">
        {brand.product} Legal
        <br />
        Austin, Texas
        <br />
        Email: <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
        <br />
        Phone: <a href={brand.phoneHref}>{brand.phone}</a>
      </address>
    </>
  );
}
