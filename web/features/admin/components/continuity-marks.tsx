import { Mail } from 'lucide-react';
import { useState } from 'react';
import type { StaffChatMessage } from '../../../../api/contract/chat';
import { transcriptConfirmationText } from '../../../../api/contract/continuity';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { adminApi } from '../api/admin-api';
import { isUnauthorized } from '../lib/failures';

/** The id of the last staff reply at or below the visitor's seen seq: "Seen" goes under it. */
export function lastSeenReplyId(messages: readonly StaffChatMessage[], visitorSeenSeq: number | undefined): number | undefined {
  if (!visitorSeenSeq) return undefined;
  let seen: number | undefined;
  for (const message of messages) if (!message.isFromUser && message.seq <= visitorSeenSeq) seen = message.id;
  return seen;
}

/** "Seen", under the last reply the visitor has had on screen. */
export function SeenMark() {
  return (
    <li className="-mt-2 text-right text-xs text-slate-500" data-testid="seen-mark">
      Seen
    </li>
  );
}

/**
 * "Email transcript" (the "Send transcript"): the conversation mailed to the visitor's own email (the server's rules: one a
 * conversation per 10 minutes, five an address a day; an address that never confirmed it wants our mail is sent a confirmation
 * link first, and the transcript once it is opened), the outcome in a toast.
 */
export function SendTranscriptButton({ sessionId, email }: { sessionId: string; email: string | null }) {
  const [sending, setSending] = useState(false);
  const send = async () => {
    setSending(true);
    try {
      const answer = await adminApi.sendTranscript(sessionId);
      if (answer.confirmationSent) toast({ title: 'Confirmation sent', description: transcriptConfirmationText(answer.email), variant: 'success' });
      else toast({ title: 'Transcript sent', description: `Emailed to ${answer.email}.`, variant: 'success' });
    } catch (error) {
      if (!isUnauthorized(error)) {
        const description = error instanceof ApiError && error.body?.message ? error.body.message : 'The transcript could not be sent.';
        toast({ title: 'Transcript not sent', description, variant: 'destructive' });
      }
    } finally {
      setSending(false);
    }
  };
  // Not "Send ...": the reply box's Send button is found by that name.
  const label = email ? `Email the transcript to ${email}` : 'Email transcript: no email for this conversation';
  return (
    <button
      type="button"
      onClick={() => void send()}
      disabled={!email || sending}
      title={label}
      aria-label={label}
      className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-slate-300 px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
    >
      <Mail className="size-4" aria-hidden="true" />
      <span className="max-sm:sr-only">{sending ? 'Emailing...' : 'Email transcript'}</span>
    </button>
  );
}
