/** Who works what (DESIGN.md 11): the staff one may assign to, and the auto-assignment setting. */
export {
  assigneeOrRefuse,
  autoAssignmentSettings,
  autoAssignmentSettingsLocked,
  listAssignees,
  saveAutoAssignmentSettings,
} from './assignment';
