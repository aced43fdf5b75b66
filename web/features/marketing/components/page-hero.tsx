import type { ReactNode } from 'react';

/** The coloured band at the top of the inner pages. */
export function PageHero({ eyebrow, title, children }: { eyebrow?: string; title: string; children?: ReactNode }) {
  return (
    <section className="relative overflow-hidden bg-brand text-white">
      <div
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_85%_20%,rgba(220,38,38,0.35),transparent_45%),radial-gradient(circle_at_10%_90%,rgba(255,255,255,0.12),transparent_40%)]"
        aria-hidden="true"
      />
      <div className="relative mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-20 lg:px-8">
        {eyebrow ? <p className="text-sm font-semibold tracking-wide text-red-200 uppercase">{eyebrow}</p> : null}
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{title}</h1>
        {children ? <div className="mx-auto mt-5 max-w-2xl text-lg leading-8 text-indigo-50">{children}</div> : null}
      </div>
    </section>
  );
}
