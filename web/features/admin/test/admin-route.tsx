import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { AdminPage } from '../admin-page';

/** The address the page is at, for tests to read after a click. */
function CurrentAddress() {
  const location = useLocation();
  return <span hidden data-testid="current-address">{`${location.pathname}${location.search}`}</span>;
}

/** The browser's Back and Forward buttons, for tests to press (`history-back`, `history-forward`). */
function HistoryButtons() {
  const navigate = useNavigate();
  return (
    <>
      <button type="button" hidden data-testid="history-back" onClick={() => void navigate(-1)} />
      <button type="button" hidden data-testid="history-forward" onClick={() => void navigate(1)} />
    </>
  );
}

/** The admin page under its route of web/app/router.tsx (`/admin/*`), opened at `at`. */
export function AdminRoute({ at = '/admin' }: { at?: string }) {
  return (
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route path="/admin/*" element={<AdminPage />} />
      </Routes>
      <CurrentAddress />
      <HistoryButtons />
    </MemoryRouter>
  );
}
