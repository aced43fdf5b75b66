import { useSyncExternalStore } from 'react';
import { RouterProvider } from 'react-router-dom';
import { Toaster } from '../components/ui/toast';
import { ChatLauncher } from '../features/chat';
import { router } from './router';

const subscribeToRoute = (onChange: () => void) => router.subscribe(onChange);
const currentPath = () => router.state.location.pathname;

export function App() {
  // The launcher lives outside the routes (it survives navigation) but follows the path to hide on /admin.
  const pathname = useSyncExternalStore(subscribeToRoute, currentPath);
  return (
    <>
      <RouterProvider router={router} />
      <ChatLauncher pathname={pathname} />
      <Toaster />
    </>
  );
}
