import { createBrowserRouter } from 'react-router-dom';

/** Every route is lazy: a page's code loads only when it is visited. */
export const router = createBrowserRouter([
  { path: '/', lazy: () => import('./routes/home').then((module) => ({ Component: module.HomePage })) },
  { path: '*', lazy: () => import('./routes/not-found').then((module) => ({ Component: module.NotFoundPage })) },
]);
