// What every screen of a started session needs: the API client, the draft store, the
// instrument (all question wording comes from it) and the session, which decides the screen.
import { createContext, useContext } from "react";
import type { ApiClient } from "./api/client";
import type { Instrument, Session } from "./api/types";
import type { DraftStore } from "./drafts/store";

export interface StudyContextValue {
  client: ApiClient;
  drafts: DraftStore;
  instrument: Instrument;
  session: Session;
  /** Show what the server says comes next (every step answers with the whole session). */
  setSession: (session: Session) => void;
  /** Ask the server where the participant stands (after a refusal or a lost stream). */
  refresh: () => Promise<void>;
  /** The token stopped working: back to the landing page. */
  signOut: (message: string) => void;
}

export const StudyContext = createContext<StudyContextValue | null>(null);

/** The started session, or null on the pages before it (landing, loading). */
export function useOptionalStudy(): StudyContextValue | null {
  return useContext(StudyContext);
}

export function useStudy(): StudyContextValue {
  const value = useContext(StudyContext);
  if (!value) throw new Error("useStudy() outside a started session");
  return value;
}
