import { createBrowserRouter } from 'react-router-dom';

/** Every route is lazy: a page's code loads only when it is visited. */
export const router = createBrowserRouter([
  { path: '/', lazy: () => import('./routes/home').then((module) => ({ Component: module.HomePage })) },
  { path: '/admin', lazy: () => import('./routes/admin').then((module) => ({ Component: module.AdminPage })) },
  { path: '*', lazy: () => import('./routes/not-found').then((module) => ({ Component: module.NotFoundPage })) },
]);
