import { createBrowserRouter } from 'react-router-dom';
import { prefetchAdminData } from '../features/admin/api/prefetch';

/** Every route is lazy: a page's code loads only when it is visited. */
export const router = createBrowserRouter([
  { path: '/', lazy: () => import('./routes/home').then((module) => ({ Component: module.HomePage })) },
  {
    path: '/admin',
    lazy: () => {
      // The first screen's data loads while the admin bundle downloads, not after it.
      prefetchAdminData();
      return import('./routes/admin').then((module) => ({ Component: module.AdminPage }));
    },
  },
  { path: '*', lazy: () => import('./routes/not-found').then((module) => ({ Component: module.NotFoundPage })) },
]);
