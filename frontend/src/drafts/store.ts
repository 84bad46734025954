// Draft persistence: whatever a participant types is kept in memory at once, written to
// localStorage once typing pauses (it survives a reload, the back button and a dropped
// connection; a write per keystroke made typing janky on slow phones) and, a moment later, to
// the server's drafts endpoint (it survives a different device or a cleared browser). A flush
// (the app flushes when the page is hidden or left: pagehide, visibilitychange) writes both at
// once, and so does every write while the page is hidden. On start the
// newer of the two copies wins. A failed server save stays pending and is sent again on the
// next flush (the app flushes when the connection comes back and when the page is hidden).
// The server hears about each key in order, one request at a time: a save still in flight is
// never overtaken by an older one, and a clear deletes the server's copy after it.
// A save the server refuses (400/413: past its limits on drafts) is kept here like an offline
// one, and the store says so (`refused`), so the page can tell the participant where it is.
import { ApiError } from "../api/client";
import type { ServerDraft } from "../api/types";

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface DraftRemote {
  save(key: string, data: unknown, keepalive: boolean): Promise<void>;
  remove(key: string): Promise<void>;
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
  /** Per key, the localStorage write waiting for typing to pause. */
  private readonly localTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Keys cleared here whose server copy is still to be deleted. */
  private readonly unremoved = new Set<string>();
  /** Per key, the server request running now (the next one waits for it). */
  private readonly queues = new Map<string, Promise<void>>();
  /** Keys whose latest save the server refused (not offline: it answered no). */
  private readonly refusedKeys = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly prefix: string;

  constructor(
    /** Whose drafts these are (study and participant): other per-participant stores use it. */
    readonly namespace: string,
    private readonly storage: KeyValueStorage | null,
    private readonly remote: DraftRemote | null,
    private readonly delayMs = 800,
    private readonly now: () => number = () => Date.now(),
    private readonly localDelayMs = 500,
    private readonly isHidden: () => boolean = pageIsHidden,
  ) {
    this.prefix = `attune:draft:${namespace}:`;
  }

  read<T>(key: string): T | undefined {
    return this.envelope(key)?.value as T | undefined;
  }

  write(key: string, value: unknown): void {
    const envelope = { value, savedAt: this.now() };
    this.unremoved.delete(key);
    this.memory.set(key, envelope);
    this.unsent.set(key, envelope);
    if (this.isHidden()) {
      // The page is going away (a listener wrote after the app's flush): no timer would run.
      this.writeLocal(key);
      void this.send(key, true);
      return;
    }
    this.scheduleLocal(key);
    this.schedule(key);
  }

  /** Forget a draft, here and (after any save of it still in flight) on the server. */
  clear(key: string): void {
    this.markRefused(key, false);
    this.memory.delete(key);
    this.unsent.delete(key);
    this.cancelTimer(key);
    this.cancelLocal(key);
    try {
      this.storage?.removeItem(this.prefix + key);
    } catch {
      // storage unavailable: the in-memory copy is already gone
    }
    if (!this.remote) return;
    this.unremoved.add(key);
    void this.enqueue(key, () => this.removeRemote(key));
  }

  /** Write every draft still waiting to localStorage now, then send every unsent one to the
   * server (keepalive while the page is being hidden or closed). */
  async flush(keepalive = false): Promise<void> {
    this.flushLocal();
    const removals = [...this.unremoved].map((key) => this.enqueue(key, () => this.removeRemote(key)));
    await Promise.all([...removals, ...[...this.unsent.keys()].map((key) => this.send(key, keepalive))]);
  }

  /** Keys whose latest value (or clear) the server has not confirmed yet. */
  get pendingKeys(): string[] {
    return [...new Set([...this.unsent.keys(), ...this.unremoved])];
  }

  /** Whether the server refused a draft it still has not taken: it is kept in this browser only. */
  get refused(): boolean {
    return this.refusedKeys.size > 0;
  }

  /** Be told when `refused` changes (React's useSyncExternalStore); returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
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

  /** Write to localStorage now what is waiting for typing to pause (synchronous: safe in a
   * pagehide listener). */
  flushLocal(): void {
    for (const key of [...this.localTimers.keys()]) this.writeLocal(key);
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

  private scheduleLocal(key: string): void {
    this.cancelLocal(key);
    this.localTimers.set(key, setTimeout(() => this.writeLocal(key), this.localDelayMs));
  }

  private cancelLocal(key: string): void {
    const timer = this.localTimers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.localTimers.delete(key);
  }

  private writeLocal(key: string): void {
    this.cancelLocal(key);
    const envelope = this.memory.get(key);
    if (envelope) this.keepLocally(key, envelope);
  }

  private schedule(key: string): void {
    if (!this.remote) return;
    this.cancelTimer(key);
    this.timers.set(key, setTimeout(() => void this.send(key, false), this.delayMs));
  }

  private cancelTimer(key: string): void {
    const timer = this.timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(key);
  }

  /** Run `work` after every earlier request about `key` has settled. */
  private enqueue(key: string, work: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(key) ?? Promise.resolve()).then(work);
    this.queues.set(key, next);
    void next.finally(() => {
      if (this.queues.get(key) === next) this.queues.delete(key);
    });
    return next;
  }

  private send(key: string, keepalive: boolean): Promise<void> {
    this.cancelTimer(key);
    // Whatever is latest when its turn comes is what goes: queued saves of the same key
    // collapse into one request.
    return this.enqueue(key, async () => {
      const envelope = this.unsent.get(key);
      if (!envelope || !this.remote) return;
      try {
        await this.remote.save(key, envelope, keepalive);
        // Typing may have gone on meanwhile: only a copy that is still the latest counts as sent.
        if (this.unsent.get(key) === envelope) this.unsent.delete(key);
        this.markRefused(key, false);
      } catch (error) {
        // Offline or refused: it stays unsent; the next flush tries again. A refusal is said.
        if (error instanceof ApiError && (error.status === 400 || error.status === 413)) this.markRefused(key, true);
      }
    });
  }

  private markRefused(key: string, refused: boolean): void {
    const was = this.refused;
    if (refused) this.refusedKeys.add(key);
    else this.refusedKeys.delete(key);
    if (this.refused !== was) for (const listener of this.listeners) listener();
  }

  private async removeRemote(key: string): Promise<void> {
    // Written again since the clear: the newer value replaces the server copy anyway.
    if (!this.unremoved.has(key) || !this.remote) return;
    try {
      await this.remote.remove(key);
      this.unremoved.delete(key);
    } catch {
      // Offline: the next flush deletes it.
    }
  }
}

function pageIsHidden(): boolean {
  return typeof document !== "undefined" && document.visibilityState === "hidden";
}
