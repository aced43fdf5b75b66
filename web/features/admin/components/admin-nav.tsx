import { NavLink, useLocation } from 'react-router-dom';
import type { StaffRole } from '../../../../api/contract/auth';
import { adminHome, adminScreenPaths, matchAdminScreen } from '../lib/admin-paths';

interface NavItem {
  to: string;
  label: string;
  /** Shown to admins only (the screen's API answers an agent 403 anyway). */
  adminOnly: boolean;
}

/** The dashboard's screens; a screen's path is in admin-paths.ts. */
export const adminNavItems: NavItem[] = [
  { to: adminHome, label: 'Inbox', adminOnly: false },
  { to: adminScreenPaths.reports, label: 'Reports', adminOnly: false },
  { to: adminScreenPaths.cannedReplies, label: 'Canned replies', adminOnly: false },
  { to: adminScreenPaths.team, label: 'Team', adminOnly: true },
  { to: adminScreenPaths.audit, label: 'Audit log', adminOnly: true },
  { to: adminScreenPaths.webhooks, label: 'Webhooks', adminOnly: true },
  { to: adminScreenPaths.data, label: 'Data requests', adminOnly: true },
  { to: adminScreenPaths.jobs, label: 'Dead jobs', adminOnly: true },
];

const linkClass = (active: boolean) =>
  `inline-flex items-center rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap ${
    active ? 'bg-brand/10 text-brand' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
  }`;

/** The links between the inbox and the other admin screens; wraps on a phone rather than scroll sideways. */
export function AdminNav({ role }: { role: StaffRole | undefined }) {
  const { pathname } = useLocation();
  const screen = matchAdminScreen(pathname);
  const items = adminNavItems.filter((item) => !item.adminOnly || role === 'admin');
  return (
    <nav aria-label="Dashboard">
      <ul className="flex flex-wrap gap-1">
        {items.map((item) => {
          // The inbox is every address that is not another screen (a lead, a conversation).
          const active = item.to === adminHome ? screen === undefined : pathname.replace(/\/+$/, '') === item.to;
          return (
            <li key={item.to}>
              <NavLink to={item.to} end className={() => linkClass(active)} aria-current={active ? 'page' : undefined}>
                {item.label}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
