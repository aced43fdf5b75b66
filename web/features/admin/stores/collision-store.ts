import { create } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { ConversationViewer, ConversationViewers } from '../../../../api/contract/team-inbox-notes';

interface CollisionState {
  /** This dashboard's own staff id (the server says it), left out of "who else". */
  me: number | null;
  /** Who views each conversation now, as the server last said. */
  viewers: Record<string, ConversationViewer[]>;
  /** Who is typing a reply in each conversation: staff id to name. */
  typing: Record<string, Record<number, string>>;
  loaded: (me: number, sessions: ConversationViewers[]) => void;
  setViewers: (update: ConversationViewers) => void;
  setTyping: (sessionId: string, typist: ConversationViewer, typing: boolean) => void;
  reset: () => void;
}

/** Collision (DESIGN.md 11): who else has a conversation open and who is typing a reply, live from the staff socket. */
export const useCollision = create<CollisionState>((set) => ({
  me: null,
  viewers: {},
  typing: {},
  loaded: (me, sessions) => set({ me, viewers: Object.fromEntries(sessions.map((each) => [each.sessionId, each.viewers])) }),
  setViewers: ({ sessionId, viewers }) =>
    set((state) => {
      const { [sessionId]: _gone, ...others } = state.viewers;
      return { viewers: viewers.length > 0 ? { ...others, [sessionId]: viewers } : others };
    }),
  setTyping: (sessionId, typist, typing) =>
    set((state) => {
      const { [typist.staffId]: _was, ...rest } = state.typing[sessionId] ?? {};
      return { typing: { ...state.typing, [sessionId]: typing ? { ...rest, [typist.staffId]: typist.name } : rest } };
    }),
  reset: () => set({ me: null, viewers: {}, typing: {} }),
}));

const noOne: string[] = [];

/** The other staff viewing a conversation, by name. */
export function useOtherViewers(sessionId: string | null): string[] {
  return useCollision(
    useShallow((state) => {
      const viewers = sessionId ? state.viewers[sessionId] : undefined;
      return viewers ? viewers.filter((viewer) => viewer.staffId !== state.me).map((viewer) => viewer.name) : noOne;
    }),
  );
}

/** The other staff typing a reply in a conversation who still view it (a dropped tab stops at once), by name. */
export function useOtherTypists(sessionId: string | null): string[] {
  return useCollision(
    useShallow((state) => {
      if (!sessionId) return noOne;
      const viewing = new Set((state.viewers[sessionId] ?? []).map((viewer) => viewer.staffId));
      return Object.entries(state.typing[sessionId] ?? {})
        .filter(([staffId]) => Number(staffId) !== state.me && viewing.has(Number(staffId)))
        .map(([, name]) => name);
    }),
  );
}

/** "Dana", "Dana and Lee", "Dana, Lee and Sam". */
export function namesList(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}
