import { ButtonLink } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/page-title';

export function NotFoundPage() {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <PageTitle title="Page Not Found" />
      <p className="text-6xl font-extrabold text-brand">404</p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900">404 Page Not Found</h1>
      <p className="mt-3 text-slate-600">
        The page you're looking for doesn't exist. Did you forget to add the page to the router?
      </p>
      <ButtonLink to="/" variant="brand" className="mt-8">
        Back to home
      </ButtonLink>
    </section>
  );
}
