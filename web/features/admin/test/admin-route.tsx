import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { AdminPage } from '../admin-page';

/** The address the page is at, for tests to read after a click. */
function CurrentAddress() {
  const location = useLocation();
  return <span hidden data-testid="current-address">{`${location.pathname}${location.search}`}</span>;
}

/** The admin page under its route of web/app/router.tsx (`/admin/*`), opened at `at`. */
export function AdminRoute({ at = '/admin' }: { at?: string }) {
  return (
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route path="/admin/*" element={<AdminPage />} />
      </Routes>
      <CurrentAddress />
    </MemoryRouter>
  );
}
