/** The audit log (DESIGN.md 11): modules record their staff actions in the action's own write; admins read it. */
export { type AuditAction, type AuditEntry, recordAudit } from './audit';
export { auditRoutes } from './audit.routes';
