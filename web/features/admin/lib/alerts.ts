import type { ChatMessage } from '../../../../api/contract/chat';
import { storageKeys } from '../../../lib/storage-keys';

let audioContext: AudioContext | null = null;

/**
 * Called from a user gesture (mouse, key or touch on the dashboard): browsers allow audio and the
 * notification prompt only then.
 */
export function unlockAlerts(): void {
  if (typeof AudioContext !== 'undefined') {
    audioContext ??= new AudioContext();
    if (audioContext.state === 'suspended') void audioContext.resume().catch(() => undefined);
  }
  if (typeof Notification !== 'undefined' && Notification.permission === 'default' && !localStorage.getItem(storageKeys.adminNotificationAsked)) {
    localStorage.setItem(storageKeys.adminNotificationAsked, 'true');
    void Notification.requestPermission().catch(() => undefined);
  }
}

/** A short two-tone beep from Web Audio: no sound file to ship. */
export function playBeep(): void {
  if (!audioContext || audioContext.state !== 'running') return;
  const now = audioContext.currentTime;
  const gain = audioContext.createGain();
  gain.connect(audioContext.destination);
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
  for (const [frequency, start] of [
    [880, 0],
    [1320, 0.12],
  ] as const) {
    const oscillator = audioContext.createOscillator();
    oscillator.type = 'sine';
    oscillator.frequency.setValueAtTime(frequency, now + start);
    oscillator.connect(gain);
    oscillator.start(now + start);
    oscillator.stop(now + start + 0.15);
  }
}

function notify(title: string, options: NotificationOptions, onClick: () => void): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const notification = new Notification(title, options);
    notification.onclick = () => {
      window.focus();
      onClick();
      notification.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker; the sound and the badges remain.
  }
}

/** How much of a message a notification shows: its start, enough to tell what it is about. */
const notificationBodyLength = 200;

function messageStart(text: string): string {
  return text.length > notificationBodyLength ? `${text.slice(0, notificationBodyLength).trimEnd()}…` : text;
}

/**
 * A system notification for a visitor's message, shown whether or not the tab has focus: a new
 * conversation (its first message), or a new message in one. One tag a conversation, so its next
 * message replaces its notification on screen rather than stacking another.
 */
export function notifyVisitorMessage(message: ChatMessage, sender: string | null, onClick: () => void): void {
  notify(visitorMessageTitle(message, sender), { body: messageStart(message.message), tag: `chat-${message.sessionId}` }, onClick);
}

function visitorMessageTitle(message: ChatMessage, sender: string | null): string {
  // Only a visitor starts a session, so its first message is a new conversation.
  if (message.seq === 1) return sender ? `New chat from ${sender}` : 'New chat';
  return sender ? `New message from ${sender}` : 'New chat message';
}

/** One system notification for several visitors' messages; a click opens the latest. */
export function notifyVisitorMessages(count: number, latest: ChatMessage, latestSender: string | null, onClick: () => void): void {
  notify(`${count} new chat messages`, { body: `Latest from ${latestSender ?? 'Anonymous'}: ${messageStart(latest.message)}`, tag: 'chat-messages' }, onClick);
}

/** After an alert, visitors' messages of this long are summed up in one notification, without a sound. */
export const alertIntervalMs = 1000;

export interface VisitorAlerts {
  /** Visitors' messages staff have not seen, in the order they came. */
  announce(messages: ChatMessage[]): void;
  dispose(): void;
}

/**
 * The beep and the notifications for new visitors' messages, throttled: a lone message beeps and
 * notifies at once; more within the interval after it wait for its end and make one notification
 * between them, so a flood of messages beeps once instead of a thousand times.
 */
export function createVisitorAlerts(senderOf: (message: ChatMessage) => string | null, onOpen: (sessionId: string) => void): VisitorAlerts {
  let held: { count: number; latest: ChatMessage } | null = null;
  let interval: ReturnType<typeof setTimeout> | undefined;

  function show(count: number, latest: ChatMessage): void {
    const open = () => onOpen(latest.sessionId);
    if (count === 1) notifyVisitorMessage(latest, senderOf(latest), open);
    else notifyVisitorMessages(count, latest, senderOf(latest), open);
  }

  function endInterval(): void {
    interval = undefined;
    if (!held) return;
    show(held.count, held.latest);
    held = null;
    // A stream that goes on is summed up once an interval.
    interval = setTimeout(endInterval, alertIntervalMs);
  }

  return {
    announce(messages) {
      const latest = messages[messages.length - 1];
      if (!latest) return;
      if (interval !== undefined) {
        held = { count: (held?.count ?? 0) + messages.length, latest };
        return;
      }
      playBeep();
      show(messages.length, latest);
      interval = setTimeout(endInterval, alertIntervalMs);
    },
    dispose() {
      clearTimeout(interval);
      interval = undefined;
      held = null;
    },
  };
}
