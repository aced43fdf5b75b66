/**
 * Which line a job waits in (DESIGN 17): each class has slots of its own on every node, so one kind
 * of work can never hold up another. `access` is mail that lets a person in (a reset, an invite) and
 * goes first; `mail` is every other mail; `realtime` is quick work a person is waiting on in the
 * product (an auto-assignment, a rating question); `webhook` is deliveries to receivers we do not run;
 * `maintenance` (sweeps, retention) goes last.
 */
export const jobClasses = ['access', 'mail', 'realtime', 'webhook', 'maintenance'] as const;
export type JobClass = (typeof jobClasses)[number];
