// The session token and Prolific ids of this tab. sessionStorage, not localStorage: the token
// should not outlive the tab on a shared computer, and it survives a reload, which is what
// matters. A lost token is no loss: starting again with the same PROLIFIC_PID resumes.
import type { ProlificParams } from "../api/client";

export interface StoredSession extends ProlificParams {
  token: string;
}

const keyOf = (slug: string) => `attune:session:${slug}`;

export function loadStoredSession(slug: string, storage: Storage | null = safeSessionStorage()): StoredSession | null {
  try {
    const raw = storage?.getItem(keyOf(slug));
    const parsed = raw ? (JSON.parse(raw) as Partial<StoredSession>) : null;
    return parsed && typeof parsed.token === "string" && typeof parsed.prolificPid === "string"
      ? (parsed as StoredSession)
      : null;
  } catch {
    return null;
  }
}

export function saveStoredSession(slug: string, session: StoredSession, storage: Storage | null = safeSessionStorage()): void {
  try {
    storage?.setItem(keyOf(slug), JSON.stringify(session));
  } catch {
    // Storage refused (private mode): the session lasts as long as the page.
  }
}

export function clearStoredSession(slug: string, storage: Storage | null = safeSessionStorage()): void {
  try {
    storage?.removeItem(hiddenNoticeKeyOf(slug, storage));
    storage?.removeItem(keyOf(slug));
  } catch {
    // nothing stored
  }
}

// The support notice the participant chose to hide, per participant session (this tab, this
// study, this PROLIFIC_PID): the conversation and the turn whose risk message raised it. A
// notice raised by a later message is shown again in full.
export interface HiddenNotice {
  conversation: number;
  turn: number;
}

function hiddenNoticeKeyOf(slug: string, storage: Storage | null): string {
  return `attune:support-hidden:${slug}:${loadStoredSession(slug, storage)?.prolificPid ?? ""}`;
}

export function loadHiddenNotice(slug: string, storage: Storage | null = safeSessionStorage()): HiddenNotice | null {
  try {
    const raw = storage?.getItem(hiddenNoticeKeyOf(slug, storage));
    const parsed = raw ? (JSON.parse(raw) as Partial<HiddenNotice>) : null;
    return parsed && typeof parsed.conversation === "number" && typeof parsed.turn === "number"
      ? { conversation: parsed.conversation, turn: parsed.turn }
      : null;
  } catch {
    return null;
  }
}

/** Remember the hidden notice, or forget it (null: the participant brought it back). */
export function saveHiddenNotice(slug: string, hidden: HiddenNotice | null, storage: Storage | null = safeSessionStorage()): void {
  try {
    const key = hiddenNoticeKeyOf(slug, storage);
    if (hidden) storage?.setItem(key, JSON.stringify(hidden));
    else storage?.removeItem(key);
  } catch {
    // Storage refused (private mode): hidden until the page is left.
  }
}

export function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
