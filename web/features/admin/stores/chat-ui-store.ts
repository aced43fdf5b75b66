import { create } from 'zustand';

interface ChatUiState {
  /** The conversation open in the pane, the address's (set by the dashboard); null when none is. */
  openSessionId: string | null;
  /** Chat sessions whose visitor is typing right now. */
  visitorTyping: Record<string, boolean>;
  openSession: (sessionId: string) => void;
  closeSession: () => void;
  setTyping: (changes: Record<string, boolean>) => void;
  reset: () => void;
}

/** The chat inbox's client state: which conversation is open and who is typing. */
export const useChatUi = create<ChatUiState>((set) => ({
  openSessionId: null,
  visitorTyping: {},
  openSession: (sessionId) => set({ openSessionId: sessionId }),
  closeSession: () => set({ openSessionId: null }),
  setTyping: (changes) => set((state) => ({ visitorTyping: { ...state.visitorTyping, ...changes } })),
  reset: () => set({ openSessionId: null, visitorTyping: {} }),
}));
