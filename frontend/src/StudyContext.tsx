// What every screen of a started session needs: the API client, the draft store, the
// instrument (all question wording comes from it) and the session, which decides the screen.
import { createContext, useContext, useMemo } from "react";
import type { ApiClient } from "./api/client";
import type { Instrument, Session, Turn } from "./api/types";
import type { DraftStore } from "./drafts/store";
import { useServerSession } from "./session/useServerSession";

export interface StudyContextValue {
  client: ApiClient;
  drafts: DraftStore;
  instrument: Instrument;
  session: Session;
  /** Show what the server says comes next (every step answers with the whole session). */
  setSession: (session: Session) => void;
  /** Show one turn as a stream reported it (kept on screen until the session is read again). */
  mergeTurn: (turn: Turn) => void;
  /** Ask the server where the participant stands (after a refusal or a lost stream); an
   * answer overtaken by a newer one is ignored. */
  refresh: (signal?: AbortSignal) => Promise<void>;
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

interface StudyValueInput {
  client: ApiClient;
  drafts: DraftStore;
  instrument: Instrument;
  initialSession: Session;
  signOut: (message: string) => void;
}

/** The context of a started session, its session kept by the one server-state store. */
export function useStudyValue({ client, drafts, instrument, initialSession, signOut }: StudyValueInput): StudyContextValue {
  const { session, setSession, mergeTurn, refresh } = useServerSession(client, initialSession);
  return useMemo(
    () => ({ client, drafts, instrument, session, setSession, mergeTurn, refresh, signOut }),
    [client, drafts, instrument, session, setSession, mergeTurn, refresh, signOut],
  );
}
