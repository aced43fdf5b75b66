import { Mail } from 'lucide-react';
import type { ChatController } from '../controller';

/**
 * "Email me this conversation", under the messages once the conversation exists: mailed to the
 * conversation's own email, and what came of it said beside it (a sentence the server gave, for a
 * refusal).
 */
export function TranscriptAction({ controller }: { controller: ChatController }) {
  const useChat = controller.store;
  const started = useChat((state) => state.entries.some((entry) => entry.id !== undefined));
  const transcript = useChat((state) => state.transcript);
  if (!started) return null;
  return (
    <div className="border-t border-slate-100 px-4 py-1.5 text-xs">
      <button
        type="button"
        onClick={() => void controller.continuity.emailTranscript()}
        disabled={transcript.state === 'sending'}
        className="inline-flex items-center gap-1.5 rounded py-1 font-medium text-brand hover:underline disabled:opacity-60"
      >
        <Mail aria-hidden="true" className="size-3.5" />
        Email me this conversation
      </button>
      {transcript.text && (
        <p role="status" className={`pb-0.5 ${transcript.state === 'failed' ? 'text-red-700' : 'text-slate-600'}`}>
          {transcript.text}
        </p>
      )}
    </div>
  );
}
