import { testimonials } from '../content';

export function TestimonialsSection() {
  return (
    <section aria-labelledby="testimonials-title" className="py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <h2 id="testimonials-title" className="text-center text-3xl font-extrabold tracking-tight text-slate-900">
          Dealers who made the switch
        </h2>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {testimonials.map((item) => (
            <li key={item.name} className="rounded-2xl border border-slate-200 p-6">
              <blockquote className="text-slate-700">“{item.quote}”</blockquote>
              <p className="mt-4 font-semibold text-slate-900">{item.name}</p>
              <p className="text-sm text-slate-600">{item.role}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
