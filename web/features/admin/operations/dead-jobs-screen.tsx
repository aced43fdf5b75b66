import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { operationsApi, operationsKeys } from './operations-api';
import { ErrorNote, when } from './operations-ui';

/** Jobs that failed for 24 hours: what, why, how often, when; retry one. */
export function DeadJobsScreen() {
  const queryClient = useQueryClient();
  const jobs = useQuery({ queryKey: operationsKeys.deadJobs, queryFn: operationsApi.deadJobs });
  const retry = useMutation({
    mutationFn: operationsApi.retryJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operationsKeys.deadJobs }),
  });

  return (
    <div>
      <ErrorNote error={jobs.error ?? retry.error} />
      {jobs.data?.length === 0 && <p className="text-sm text-slate-600">No dead jobs: every promised piece of work was done or is still being tried.</p>}
      <ul className="space-y-3">
        {jobs.data?.map((job) => (
          <li key={job.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-semibold text-slate-900">
                {job.kind} <span className="font-normal text-slate-500">#{job.id}</span>
              </p>
              <Button size="sm" variant="outline" onClick={() => retry.mutate(job.id)} disabled={retry.isPending} aria-label={`Retry ${job.kind} #${job.id}`}>
                Retry
              </Button>
            </div>
            <p className="mt-1 text-sm break-words text-red-800">{job.error ?? 'No error recorded'}</p>
            <p className="mt-1 text-xs text-slate-600">
              {job.attempts} attempts · died {when(job.diedAt)}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
