/**
 * The Support page's Start Live Chat button. The chat widget (web/features/chat) exports `openChat()`;
 * until it is wired here, the button brings the visitor to the chat launcher at the bottom right,
 * or, if the launcher is not on the page, to the ticket form.
 */
export function startLiveChat(): void {
  const launcher = document.querySelector<HTMLElement>('[data-chat-launcher]');
  if (launcher) {
    launcher.click();
    return;
  }
  const ticketForm = document.getElementById('ticket-title');
  ticketForm?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  document.getElementById('ticket-name')?.focus({ preventScroll: true });
}
