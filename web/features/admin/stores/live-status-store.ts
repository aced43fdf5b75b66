import { create } from 'zustand';

interface LiveStatusState {
  /** The staff socket lost its connection or cannot make one: the dashboard refreshes on a timer instead. */
  paused: boolean;
  setPaused: (paused: boolean) => void;
}

/** Whether the dashboard's live updates are running (realtime.ts sets it; the header shows it). */
export const useLiveStatus = create<LiveStatusState>((set) => ({
  paused: false,
  setPaused: (paused) => set({ paused }),
}));
