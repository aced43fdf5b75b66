import { create } from 'zustand';

interface WhyAiModalState {
  open: boolean;
  /** The element focused when the modal opened, to know whether focus can go back to it. */
  opener: HTMLElement | null;
  setOpen: (open: boolean) => void;
}

/** The Why AI? modal is opened from the header, the mobile menu and the footer. */
export const useWhyAiModal = create<WhyAiModalState>((set) => ({
  open: false,
  opener: null,
  setOpen: (open) =>
    set(open ? { open, opener: document.activeElement instanceof HTMLElement ? document.activeElement : null } : { open }),
}));
