import { create } from 'zustand';

/** The Why AI? modal is opened from the header, the mobile menu and the footer. */
export const useWhyAiModal = create<{ open: boolean; setOpen(open: boolean): void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));
