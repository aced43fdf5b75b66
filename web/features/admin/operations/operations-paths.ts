/** The admins' operating screens, under the one `/admin/*` route (web/app/router.tsx). */
export const operationsScreens = {
  webhooks: '/admin/webhooks',
  data: '/admin/data',
  jobs: '/admin/jobs',
} as const;
export type OperationsScreen = keyof typeof operationsScreens;

/** Which operating screen an address is, or undefined for the dashboard's own addresses. */
export function matchOperationsScreen(pathname: string): OperationsScreen | undefined {
  const path = pathname.replace(/\/$/, '');
  return (Object.keys(operationsScreens) as OperationsScreen[]).find((screen) => operationsScreens[screen] === path);
}
