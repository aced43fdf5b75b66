import { brand } from '../../../api/contract/brand';

export function HomePage() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-3xl font-bold text-brand">{brand.product}</h1>
      <p className="mt-2 text-slate-600">AI-powered websites for independent pre-owned dealerships.</p>
    </main>
  );
}
