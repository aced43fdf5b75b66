import type { ChatController } from '../controller';

/** Under a closed conversation: writing reopens it, or the visitor starts a new one. */
export function ConversationClosed({ controller }: { controller: ChatController }) {
  const status = controller.store((state) => state.session?.status);
  if (status !== 'resolved') return null;
  return (
    <div role="status" className="mx-3 mb-2 rounded-xl bg-slate-50 px-3 py-2 text-xs text-slate-600 ring-1 ring-slate-200">
      This conversation is closed. Write below to pick it up again, or{' '}
      <button type="button" onClick={() => controller.startNewConversation()} className="font-semibold text-brand underline">
        start a new conversation
      </button>
      .
    </div>
  );
}
