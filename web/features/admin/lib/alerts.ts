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

/** A system notification for a visitor's message, shown whether or not the tab has focus. */
export function notifyVisitorMessage(message: ChatMessage, senderLabel: string, onClick: () => void): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const notification = new Notification(`New chat message from ${senderLabel}`, {
      body: message.message.slice(0, 200),
      tag: `chat-${message.sessionId}`,
    });
    notification.onclick = () => {
      window.focus();
      onClick();
      notification.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker; the sound and the badges remain.
  }
}
