/** One of the visitor's messages on its way, as written: it goes to its own conversation whatever the panel shows by then. */
export interface OutgoingMessage {
  /** The entry that shows it. */
  key: string;
  sessionId: string;
  /** Kept across resends, so the server stores the message once however often it is sent. */
  clientId: string;
  text: string;
  senderEmail?: string;
  senderName?: string;
}

/** Stored; refused by the server (set aside for the visitor's Retry); or the server could not be reached. */
export type DeliveryOutcome = 'stored' | 'refused' | 'unreachable';

/** A held outbox tries again on its own after this long, whatever else brings the connection back. */
export const chatResendDelayMs = 10_000;

/**
 * The visitor's messages not stored yet, sent one at a time in the order written, so the server
 * numbers them (seq) in that order and visitor and staff see one order. One that cannot reach the
 * server holds itself and every later one until `resume()` (the socket or the network is back, a
 * Retry) or the resend delay; one the server refused is dropped from the line and holds nothing.
 */
export class ChatOutbox {
  private line: OutgoingMessage[] = [];
  private running = false;
  private held = false;
  /** A resume came while a send was on its way: if that send fails to reach the server, try again at once. */
  private resumed = false;
  private resendTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly deliver: (message: OutgoingMessage) => Promise<DeliveryOutcome>,
    /** These messages wait for the connection (in order): shown as pending. */
    private readonly onHeld: (messages: OutgoingMessage[]) => void,
  ) {}

  /** Whether messages wait for the connection: a new one waits behind them. */
  isHeld(): boolean {
    return this.held;
  }

  add(message: OutgoingMessage): void {
    if (this.stopped) return;
    this.line.push(message);
    if (this.held) this.onHeld([message]);
    else void this.flush();
  }

  /** Sends what waits, from the first: the connection may be back. */
  resume(): void {
    if (this.stopped || this.line.length === 0) return;
    clearTimeout(this.resendTimer);
    this.resendTimer = undefined;
    this.held = false;
    this.resumed = true;
    void this.flush();
  }

  stop(): void {
    this.stopped = true;
    this.line = [];
    clearTimeout(this.resendTimer);
    this.resendTimer = undefined;
  }

  private async flush(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.held && !this.stopped && this.line.length > 0) {
        this.resumed = false;
        const outcome = await this.deliver(this.line[0]!);
        if (this.stopped) return;
        if (outcome !== 'unreachable') {
          this.line.shift();
        } else if (!this.resumed) {
          this.hold();
        }
      }
    } finally {
      this.running = false;
    }
  }

  private hold(): void {
    this.held = true;
    this.onHeld([...this.line]);
    this.resendTimer = setTimeout(() => this.resume(), chatResendDelayMs);
  }
}
