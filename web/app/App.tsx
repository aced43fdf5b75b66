import { RouterProvider } from 'react-router-dom';
import { Toaster } from '../components/ui/toast';
import { router } from './router';

export function App() {
  return (
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>
  );
}
