// The outbox: messages the participant sent that have not reached the server yet (the browser
// was offline, or the request never arrived). Kept in sessionStorage under the participant's
// namespace, so a reload finds them and sends them by itself, with the same idempotency key
// (the server stores a message once per key, and answers a resend with the turn it made).
// The chat takes one message before each reply, so in practice it holds one.
import type { KeyValueStorage } from "../drafts/store";

export interface OutboxMessage {
  text: string;
  key: string; // the idempotency key the message was first sent with, kept for every resend
}

function isMessage(value: unknown): value is OutboxMessage {
  const message = value as OutboxMessage;
  return typeof message === "object" && message !== null && typeof message.text === "string" && typeof message.key === "string";
}

export class Outbox {
  private readonly storageKey: string;
  private entries: OutboxMessage[];
  private readonly listeners = new Set<() => void>();

  constructor(
    namespace: string,
    private readonly storage: KeyValueStorage | null,
  ) {
    this.storageKey = `attune:outbox:${namespace}`;
    this.entries = this.load();
  }

  /** What waits, oldest first (the same array until it changes: useSyncExternalStore). */
  get messages(): readonly OutboxMessage[] {
    return this.entries;
  }

  put(message: OutboxMessage): void {
    if (this.entries.some((entry) => entry.key === message.key)) return;
    this.update([...this.entries, message]);
  }

  remove(key: string): void {
    if (!this.entries.some((entry) => entry.key === key)) return;
    this.update(this.entries.filter((entry) => entry.key !== key));
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private update(next: OutboxMessage[]): void {
    this.entries = next;
    try {
      if (next.length) this.storage?.setItem(this.storageKey, JSON.stringify(next));
      else this.storage?.removeItem(this.storageKey);
    } catch {
      // Storage refused (private mode): the outbox lasts as long as the page.
    }
    for (const listener of this.listeners) listener();
  }

  private load(): OutboxMessage[] {
    try {
      const parsed: unknown = JSON.parse(this.storage?.getItem(this.storageKey) ?? "[]");
      return Array.isArray(parsed) ? parsed.filter(isMessage) : [];
    } catch {
      return [];
    }
  }
}
