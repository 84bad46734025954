// Draft persistence: whatever a participant types is written to localStorage at once (it
// survives a reload, the back button and a dropped connection) and, a moment later, to the
// server's drafts endpoint (it survives a different device or a cleared browser). On start the
// newer of the two copies wins. A failed server save stays pending and is sent again on the
// next flush (the app flushes when the connection comes back and when the page is hidden).
import type { ServerDraft } from "../api/types";

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface DraftRemote {
  save(key: string, data: unknown, keepalive: boolean): Promise<void>;
  list(): Promise<ServerDraft[]>;
}

/** What is stored under a key, locally and on the server. */
export interface DraftEnvelope {
  value: unknown;
  savedAt: number; // ms since the epoch, from this browser's clock
}

function isEnvelope(data: unknown): data is DraftEnvelope {
  return typeof data === "object" && data !== null && "value" in data && "savedAt" in data &&
    typeof (data as DraftEnvelope).savedAt === "number";
}

export class DraftStore {
  private readonly memory = new Map<string, DraftEnvelope>();
  private readonly unsent = new Map<string, DraftEnvelope>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly prefix: string;

  constructor(
    namespace: string,
    private readonly storage: KeyValueStorage | null,
    private readonly remote: DraftRemote | null,
    private readonly delayMs = 800,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.prefix = `attune:draft:${namespace}:`;
  }

  read<T>(key: string): T | undefined {
    return this.envelope(key)?.value as T | undefined;
  }

  write(key: string, value: unknown): void {
    const envelope = { value, savedAt: this.now() };
    this.keepLocally(key, envelope);
    this.unsent.set(key, envelope);
    this.schedule(key);
  }

  /** Forget a draft here (the server clears its own copy when the step is submitted). */
  clear(key: string): void {
    this.memory.delete(key);
    this.unsent.delete(key);
    const timer = this.timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(key);
    try {
      this.storage?.removeItem(this.prefix + key);
    } catch {
      // storage unavailable: the in-memory copy is already gone
    }
  }

  /** Send every unsent draft now (keepalive while the page is being hidden or closed). */
  async flush(keepalive = false): Promise<void> {
    await Promise.all([...this.unsent.keys()].map((key) => this.send(key, keepalive)));
  }

  get pendingKeys(): string[] {
    return [...this.unsent.keys()];
  }

  /** Take the server's copies where they are newer than this browser's. */
  async restore(): Promise<void> {
    if (!this.remote) return;
    const drafts = await this.remote.list();
    for (const draft of drafts) {
      if (!isEnvelope(draft.data)) continue;
      const local = this.envelope(draft.key);
      if (!local || local.savedAt < draft.data.savedAt) this.keepLocally(draft.key, draft.data);
    }
  }

  private envelope(key: string): DraftEnvelope | undefined {
    const cached = this.memory.get(key);
    if (cached) return cached;
    try {
      const raw = this.storage?.getItem(this.prefix + key);
      if (!raw) return undefined;
      const parsed: unknown = JSON.parse(raw);
      if (!isEnvelope(parsed)) return undefined;
      this.memory.set(key, parsed);
      return parsed;
    } catch {
      return undefined; // private browsing or a corrupt entry: as if there were none
    }
  }

  private keepLocally(key: string, envelope: DraftEnvelope): void {
    this.memory.set(key, envelope);
    try {
      this.storage?.setItem(this.prefix + key, JSON.stringify(envelope));
    } catch {
      // Quota or private mode: the memory copy and the server copy still hold it.
    }
  }

  private schedule(key: string): void {
    if (!this.remote) return;
    const timer = this.timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.set(key, setTimeout(() => void this.send(key, false), this.delayMs));
  }

  private async send(key: string, keepalive: boolean): Promise<void> {
    const timer = this.timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(key);
    const envelope = this.unsent.get(key);
    if (!envelope || !this.remote) return;
    try {
      await this.remote.save(key, envelope, keepalive);
      // Typing may have gone on meanwhile: only a copy that is still the latest counts as sent.
      if (this.unsent.get(key) === envelope) this.unsent.delete(key);
    } catch {
      // Offline or refused: it stays unsent; the next flush tries again.
    }
  }
}
