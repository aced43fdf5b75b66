import { assigneeFilterLabels, assigneeFilters } from '../../../../api/contract/assignment';
import { useAssigneeFilterChoice } from '../api/assignment-queries';

/**
 * Mine / Unassigned / All: whose work every list, count card and badge shows (one choice for the
 * whole dashboard). Buttons with aria-pressed, like the status filter beside it.
 */
export function AssigneeFilterBar() {
  const [assignee, choose] = useAssigneeFilterChoice();
  return (
    <div role="group" aria-label="Show whose work" className="inline-flex max-w-full flex-wrap gap-1 rounded-lg border border-slate-200 bg-white p-1">
      {assigneeFilters.map((value) => {
        const pressed = value === assignee;
        return (
          <button
            key={value}
            type="button"
            aria-pressed={pressed}
            onClick={() => {
              if (!pressed) choose(value);
            }}
            className={`rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-3 focus-visible:outline-offset-1 ${
              pressed ? 'bg-slate-800 text-white' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
            }`}
          >
            {assigneeFilterLabels[value]}
          </button>
        );
      })}
    </div>
  );
}
