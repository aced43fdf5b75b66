import { useEffect, useId, useState } from 'react';
import { defaultAgentCapacity, maxAgentCapacity } from '../../../../api/contract/assignment';
import { useAssignees, useAutoAssignment } from '../api/assignment-queries';

/**
 * Auto-assignment, for admins (the chat tab): on or off, and how many open conversations an agent
 * may hold. New conversations go to the online agent with the fewest; the rest wait their turn.
 */
export function AutoAssignmentSettings() {
  const { staff, me } = useAssignees();
  const isAdmin = staff.some((member) => member.id === me && member.role === 'admin');
  const { settings, save } = useAutoAssignment(isAdmin);
  const [enabled, setEnabled] = useState(false);
  const [capacity, setCapacity] = useState(String(defaultAgentCapacity));
  const [saving, setSaving] = useState(false);
  const toggleId = useId();
  const capacityId = useId();
  useEffect(() => {
    if (!settings) return;
    setEnabled(settings.enabled);
    setCapacity(String(settings.capacity));
  }, [settings]);
  if (!isAdmin || !settings) return null;
  const capacityNumber = Number(capacity);
  const capacityValid = Number.isInteger(capacityNumber) && capacityNumber >= 1 && capacityNumber <= maxAgentCapacity;
  const changed = enabled !== settings.enabled || capacityNumber !== settings.capacity;

  return (
    <details className="rounded-lg border border-slate-200 bg-white text-sm" data-testid="auto-assignment">
      <summary className="cursor-pointer px-3 py-2 font-medium text-slate-700">
        Auto-assignment: <span className={settings.enabled ? 'text-green-700' : 'text-slate-500'}>{settings.enabled ? `on, up to ${settings.capacity} each` : 'off'}</span>
      </summary>
      <form
        className="flex flex-wrap items-end gap-x-4 gap-y-3 border-t border-slate-200 px-3 py-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!capacityValid || saving) return;
          setSaving(true);
          void save({ enabled, capacity: capacityNumber }).finally(() => setSaving(false));
        }}
      >
        <p className="w-full text-slate-600">
          New conversations go to the online agent with the fewest open ones, taking turns. When everyone is full they wait, oldest first, for the next free
          place.
        </p>
        <label htmlFor={toggleId} className="inline-flex items-center gap-2 font-medium text-slate-700">
          <input id={toggleId} type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} className="size-4 accent-brand" />
          Assign new conversations automatically
        </label>
        <div>
          <label htmlFor={capacityId} className="block text-xs font-medium text-slate-600">
            Open conversations per agent
          </label>
          <input
            id={capacityId}
            type="number"
            min={1}
            max={maxAgentCapacity}
            step={1}
            value={capacity}
            onChange={(event) => setCapacity(event.target.value)}
            aria-invalid={!capacityValid}
            aria-describedby={capacityValid ? undefined : `${capacityId}-error`}
            className="mt-1 w-24 rounded-md border border-slate-300 px-2 py-1.5 text-sm focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none"
          />
          {capacityValid ? null : (
            <p id={`${capacityId}-error`} className="mt-1 text-xs text-red-700">
              A whole number from 1 to {maxAgentCapacity}
            </p>
          )}
        </div>
        <button
          type="submit"
          disabled={!changed || !capacityValid || saving}
          className="rounded-md bg-brand px-3 py-1.5 font-semibold text-white hover:bg-brand-dark disabled:cursor-not-allowed disabled:opacity-50"
        >
          {saving ? 'Saving...' : 'Save'}
        </button>
      </form>
    </details>
  );
}
