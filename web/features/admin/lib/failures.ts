import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';

/** A 401 has already sent staff back to the sign-in card: it gets no toast of its own. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

export function dataLoadFailed(): void {
  toast({ title: 'Error loading data', description: 'Failed to load dashboard data.', variant: 'destructive' });
}

export function saveFailed(): void {
  toast({ title: 'Error', description: 'Failed to save the change.', variant: 'destructive' });
}
