import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { chatLimits } from '../../../../api/contract/brand';
import { formatOpening, hoursAt } from '../../../../api/contract/business-hours';
import type { LeaveMessageField } from '../../../../api/contract/leave-message';
import type { ChatController } from '../controller';
import type { LeftMessage } from '../store';

/** Which of DESIGN 10's three cases holds: staff online, open with nobody online (or not yet known), or closed. */
export type Availability = { kind: 'online' } | { kind: 'open' } | { kind: 'away'; backAt: Date | null };

/** Staff online wins over the hours: whoever is there answers, at any hour. */
export function availabilityOf(staffOnline: boolean | null, now: Date): Availability {
  if (staffOnline === true) return { kind: 'online' };
  const hours = hoursAt(now);
  return hours.open ? { kind: 'open' } : { kind: 'away', backAt: hours.opensAt };
}

export function availabilityText(availability: Availability, now: Date): string {
  if (availability.kind === 'online') return 'Online now';
  if (availability.kind === 'open') return 'We usually reply within a few minutes';
  return availability.backAt ? `We're away. Back ${formatOpening(availability.backAt, now)}` : "We're away";
}

/** The leave-a-message form stands in for the live chat while nobody is online, or while closed unless staff are. */
export function offersLeaveMessage(staffOnline: boolean | null, availability: Availability): boolean {
  return staffOnline === false || availability.kind === 'away';
}

/** Now, again at the next opening or closing and each minute (so "today"/"tomorrow" stay true). */
export function useHoursClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const hours = hoursAt(now);
    const change = hours.open ? hours.closesAt : hours.opensAt;
    const untilChange = change ? change.getTime() - now.getTime() : Number.POSITIVE_INFINITY;
    const timer = setTimeout(() => setNow(new Date()), Math.max(1000, Math.min(untilChange, 60_000)));
    return () => clearTimeout(timer);
  }, [now]);
  return now;
}

/** When the form gives way to the conversation (sent, or staff came online), the composer takes the focus it had. */
export function useFocusAfterLeaveMessage(showLeaveMessage: boolean, composer: RefObject<HTMLInputElement | null>): void {
  const wasShown = useRef(showLeaveMessage);
  useEffect(() => {
    const active = document.activeElement;
    if (wasShown.current && !showLeaveMessage && (!active || active === document.body)) composer.current?.focus();
    wasShown.current = showLeaveMessage;
  }, [showLeaveMessage, composer]);
}

const fieldClass = (invalid: boolean) =>
  `w-full rounded-lg border px-3 py-2 text-base ${invalid ? 'border-red-600' : 'border-slate-300'} focus:outline-none focus:ring-2 focus:ring-brand/40`;

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-xs text-red-700">
      {message}
    </p>
  );
}

/** Name, email and message in place of a live chat nobody answers; the message is the store's draft, so switching to live chat keeps it. */
export function LeaveMessageForm({ controller, availability }: { controller: ChatController; availability: Availability }) {
  const useChat = controller.store;
  const name = useChat((state) => state.name);
  const email = useChat((state) => state.email);
  const draft = useChat((state) => state.draft);
  const [errors, setErrors] = useState<Partial<Record<LeaveMessageField, string>>>({});
  const nameRef = useRef<HTMLInputElement>(null);
  const ids = { name: useId(), email: useId(), message: useId(), intro: useId() };
  const errorId = (field: LeaveMessageField) => `${ids[field]}-error`;

  // Focus the first field when the form takes the panel's place, unless the visitor is typing elsewhere on the page.
  useEffect(() => {
    const field = nameRef.current;
    const active = document.activeElement;
    const typingElsewhere =
      active instanceof HTMLElement && !field?.closest('[role="dialog"]')?.contains(active) && (active.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName));
    if (field && !typingElsewhere) field.focus();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = controller.leaveMessage({ name, email, message: draft }) ?? {};
    setErrors(found);
    const first = (['name', 'email', 'message'] as const).find((field) => found[field]);
    if (first) document.getElementById(ids[first])?.focus();
  };
  // A field's error goes once the visitor changes it, and comes back only on the next try.
  const edit = (field: LeaveMessageField, change: () => void) => {
    change();
    if (errors[field]) setErrors(({ [field]: _fixed, ...others }) => others);
  };
  const invalid = (field: LeaveMessageField) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? errorId(field) : undefined,
  });

  const intro =
    availability.kind === 'away'
      ? "Leave us a message and we'll reply by email when we're back."
      : "Nobody's free to chat right now. Leave us a message and we'll reply by email.";

  return (
    <form noValidate onSubmit={submit} aria-labelledby={ids.intro} className="flex-1 space-y-3 overflow-y-auto px-4 py-4">
      <p id={ids.intro} className="text-sm text-slate-700">
        {intro}
      </p>
      <div>
        <label htmlFor={ids.name} className="mb-1 block text-sm font-medium text-slate-800">
          Name
        </label>
        <input
          ref={nameRef}
          id={ids.name}
          type="text"
          autoComplete="name"
          maxLength={100}
          value={name}
          onChange={(event) => edit('name', () => controller.setName(event.target.value))}
          className={fieldClass(Boolean(errors.name))}
          {...invalid('name')}
        />
        <FieldError id={errorId('name')} message={errors.name} />
      </div>
      <div>
        <label htmlFor={ids.email} className="mb-1 block text-sm font-medium text-slate-800">
          Email
        </label>
        <input
          id={ids.email}
          type="email"
          autoComplete="email"
          inputMode="email"
          maxLength={254}
          value={email}
          placeholder="you@dealership.com"
          onChange={(event) => edit('email', () => controller.setEmail(event.target.value))}
          className={fieldClass(Boolean(errors.email))}
          {...invalid('email')}
        />
        <FieldError id={errorId('email')} message={errors.email} />
      </div>
      <div>
        <label htmlFor={ids.message} className="mb-1 block text-sm font-medium text-slate-800">
          Message
        </label>
        <textarea
          id={ids.message}
          rows={4}
          maxLength={chatLimits.messageMaxLength}
          value={draft}
          onChange={(event) => edit('message', () => controller.setDraft(event.target.value))}
          className={`${fieldClass(Boolean(errors.message))} resize-none`}
          {...invalid('message')}
        />
        <FieldError id={errorId('message')} message={errors.message} />
      </div>
      <button type="submit" className="w-full rounded-lg bg-brand px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-dark">
        Send message
      </button>
    </form>
  );
}

/** What the visitor is told once the form's message is stored: when, and where, the reply will come. */
export function leftMessageText(left: LeftMessage, now: Date): string {
  if (left.backAt === null) return `Thanks, ${left.name}. We'll reply within a few minutes, here and by email to ${left.email}.`;
  return `Thanks, ${left.name}. We're back ${formatOpening(new Date(left.backAt), now)}; we'll reply to ${left.email} then.`;
}

export function LeftMessageNote({ left, now }: { left: LeftMessage; now: Date }) {
  return (
    <li role="status" className="mx-auto max-w-[90%] rounded-xl bg-emerald-50 px-3 py-2 text-center text-sm text-emerald-900 ring-1 ring-emerald-200">
      {leftMessageText(left, now)}
    </li>
  );
}
