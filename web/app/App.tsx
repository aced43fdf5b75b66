import { Suspense } from 'react';
import { BrowserRouter, useLocation } from 'react-router-dom';
import { Toaster } from '../components/ui/toast';
import { ChatLauncher } from '../features/chat';
import { AppRoutes } from './router';

/** The launcher lives outside the routes (it survives navigation) but follows the path to hide on /admin. */
function RoutedChatLauncher() {
  const { pathname } = useLocation();
  return <ChatLauncher pathname={pathname} />;
}

/** The app inside a router: BrowserRouter in the browser, StaticRouter when the build prerenders a page. */
export function AppContent() {
  return (
    <>
      <Suspense fallback={null}>
        <AppRoutes />
      </Suspense>
      <RoutedChatLauncher />
    </>
  );
}

export function App() {
  return (
    <>
      <BrowserRouter>
        <AppContent />
      </BrowserRouter>
      <Toaster />
    </>
  );
}
