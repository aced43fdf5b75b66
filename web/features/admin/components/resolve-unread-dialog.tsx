import { chatSenderLabel } from '../../../../api/contract/chat';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useChatSession } from '../api/queries';

function messages(count: number): string {
  return count === 1 ? 'an unread message' : `${count} unread messages`;
}

/**
 * Asks before a conversation whose visitor wrote something nobody has read is resolved: resolving
 * takes it out of the open work, and that message may be the question still waiting for an answer.
 */
export function ResolveUnreadDialog({
  sessionId,
  onResolve,
  onCancel,
}: {
  /** The conversation to ask about; null when not asking. */
  sessionId: string | null;
  onResolve: (sessionId: string) => void;
  onCancel: () => void;
}) {
  const session = useChatSession(sessionId);
  // A read elsewhere may bring the count to 0 while this asks: the question was asked about one at least.
  const unread = Math.max(session?.unreadCount ?? 0, 1);
  const sender = session ? chatSenderLabel(session) : 'The visitor';
  return (
    <Dialog
      open={sessionId !== null}
      onOpenChange={(open) => (open ? undefined : onCancel())}
      title={`Resolve with ${messages(unread)}?`}
      description={`${sender} sent ${unread === 1 ? 'a message' : `${unread} messages`} nobody has read yet.`}
      width="max-w-md"
    >
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="brand" onClick={() => sessionId && onResolve(sessionId)}>
          Resolve
        </Button>
      </div>
    </Dialog>
  );
}
