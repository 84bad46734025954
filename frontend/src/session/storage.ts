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
    storage?.removeItem(keyOf(slug));
  } catch {
    // nothing stored
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
