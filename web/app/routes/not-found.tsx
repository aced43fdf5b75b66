import { ButtonLink } from '../../components/ui/button';

/** Any path the site does not have (the server answers it with status 404 and this page, prerendered). */
export function NotFoundPage() {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-brand">404</p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900">404 Page Not Found</h1>
      <p className="mt-3 text-slate-600">
        This page doesn't exist. It may have moved, or the link may be mistyped. Head back home, or contact us and we'll
        help you find what you need.
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <ButtonLink to="/" variant="brand">
          Back to home
        </ButtonLink>
        <ButtonLink to="/contact" variant="outline">
          Contact us
        </ButtonLink>
      </div>
    </section>
  );
}
