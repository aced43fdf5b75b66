/** The chat feature's public face: the lazy launcher for App.tsx and `openChat()` for any page. */
export { ChatLauncher, chatHiddenOn, openChat } from './launcher';
