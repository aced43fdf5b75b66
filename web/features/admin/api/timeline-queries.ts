import { queryOptions } from '@tanstack/react-query';
import type { ContactTimeline } from '../../../../api/contract/contacts';
import { adminApi } from './admin-api';

/**
 * `GET /api/contacts/timeline?email=`. No push says a contact sent something new, so it is read
 * again each time a lead or conversation of theirs opens. The email's case does not matter to the
 * server: one cache entry per contact.
 */
export function contactTimelineQuery(email: string) {
  return queryOptions<ContactTimeline>({
    queryKey: ['contact-timeline', email.trim().toLowerCase()] as const,
    queryFn: () => adminApi.contactTimeline(email),
    staleTime: 0,
  });
}
