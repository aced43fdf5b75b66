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

export function App() {
  return (
    <>
      <BrowserRouter>
        <Suspense fallback={null}>
          <AppRoutes />
        </Suspense>
        <RoutedChatLauncher />
      </BrowserRouter>
      <Toaster />
    </>
  );
}
