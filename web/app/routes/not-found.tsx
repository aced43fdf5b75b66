export function NotFoundPage() {
  return (
    <main className="mx-auto max-w-xl p-8 text-center">
      <h1 className="text-2xl font-bold">404 Page Not Found</h1>
      <p className="mt-2 text-slate-600">Did you forget to add the page to the router?</p>
    </main>
  );
}
