export { AdminPage } from '../../features/admin/admin-page';
