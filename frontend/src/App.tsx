// The app: start or resume a session, then show the step the server says comes next.
// Resuming needs nothing but this tab's stored token, or the study link again (the same
// PROLIFIC_PID resumes the same participant with a new token).
import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { ApiClient, ApiError, NETWORK, type ProlificParams } from "./api/client";
import type { Instrument, Session } from "./api/types";
import { ErrorNotice } from "./components/ErrorNotice";
import { HelpAndSupport } from "./components/HelpAndSupport";
import { Screen } from "./components/Screen";
import { Withdraw } from "./components/Withdraw";
import type { AppConfig } from "./config";
import { DraftStore } from "./drafts/store";
import { Landing } from "./screens/Landing";
import { previewPid, tokenFromFragment } from "./session/fragment";
import { prolificParams } from "./session/prolific";
import {
  clearStoredSession,
  loadStoredSession,
  safeLocalStorage,
  saveStoredSession,
  type StoredSession,
} from "./session/storage";
import { isFinal, StepScreen } from "./StepScreen";
import { StudyContext, type StudyContextValue } from "./StudyContext";

type State =
  | { kind: "loading" }
  | { kind: "landing"; busy: boolean; error: ApiError | string | null }
  | { kind: "unreachable"; error: ApiError }
  | { kind: "ready"; session: Session; instrument: Instrument; drafts: DraftStore };

function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, "internal", "Something went wrong. Please try again.");
}

/** A refusal at start, with the screen-out code when the study is full. */
function startMessage(error: ApiError): string {
  const code = typeof error.extra.screenout_code === "string" ? error.extra.screenout_code : "";
  return code ? `${error.message} Your code: ${code}` : error.message;
}

function Frame({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <>
      <header className="site-header">
        <span className="brand">{title}</span>
      </header>
      <main id="main">{children}</main>
      <footer className="site-footer">{footer}</footer>
    </>
  );
}

interface AppProps {
  config: AppConfig;
  search?: string;
  hash?: string;
}

export function App({ config, search = window.location.search, hash = window.location.hash }: AppProps) {
  const client = useMemo(() => new ApiClient(config.apiBase), [config.apiBase]);
  const params = useMemo(() => prolificParams(search), [search]);
  const previewToken = useMemo(() => tokenFromFragment(hash), [hash]);
  const [state, setState] = useState<State>({ kind: "loading" });

  const enter = useCallback(
    async (stored: StoredSession, known?: Session) => {
      client.token = stored.token;
      const [session, instrument] = await Promise.all([known ?? client.session(), client.instrument()]);
      const drafts = new DraftStore(`${config.slug}:${stored.prolificPid}`, safeLocalStorage(), {
        save: (key, data, keepalive) => client.saveDraft(key, data, keepalive),
        list: () => client.drafts(),
      });
      await drafts.restore().catch(() => undefined); // offline: this browser's copies still count
      setState({ kind: "ready", session, instrument, drafts });
    },
    [client, config.slug],
  );

  const boot = useCallback(async () => {
    setState({ kind: "loading" });
    if (previewToken) {
      saveStoredSession(config.slug, { token: previewToken, prolificPid: previewPid(previewToken), studyId: "", sessionId: "" });
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    const stored = loadStoredSession(config.slug);
    // A link with another participant's id (a shared computer) must not resume this one.
    if (!stored || (params.prolificPid && params.prolificPid !== stored.prolificPid)) {
      setState({ kind: "landing", busy: false, error: null });
      return;
    }
    try {
      await enter(stored);
    } catch (caught) {
      const error = asApiError(caught);
      if (error.code === NETWORK) {
        setState({ kind: "unreachable", error });
        return;
      }
      clearStoredSession(config.slug);
      setState({ kind: "landing", busy: false, error: error.code === "unauthenticated" ? null : error });
    }
  }, [config.slug, enter, params.prolificPid, previewToken]);

  useEffect(() => {
    void boot();
  }, [boot]);

  const start = async (startParams: ProlificParams) => {
    setState({ kind: "landing", busy: true, error: null });
    try {
      const result = await client.start(config.slug, startParams);
      const stored = { ...startParams, token: result.token };
      saveStoredSession(config.slug, stored);
      await enter(stored, result.session);
    } catch (caught) {
      setState({ kind: "landing", busy: false, error: startMessage(asApiError(caught)) });
    }
  };

  if (state.kind === "loading") {
    return (
      <Frame title="Attune study">
        <p role="status" className="loading">
          Loading…
        </p>
      </Frame>
    );
  }
  if (state.kind === "unreachable") {
    return (
      <Frame title="Attune study">
        <Screen title="We cannot reach the study">
          <ErrorNotice error={state.error} />
          <p>Nothing you typed is lost: it is saved on this device.</p>
          <button type="button" className="primary" onClick={() => void boot()}>
            Try again
          </button>
        </Screen>
      </Frame>
    );
  }
  if (state.kind === "landing") {
    return (
      <Frame title="Attune study">
        <Landing params={params} busy={state.busy} error={state.error} onStart={(p) => void start(p)} />
      </Frame>
    );
  }
  return (
    <ReadySession
      state={state}
      client={client}
      setState={setState}
      onSignOut={(message) => {
        clearStoredSession(config.slug);
        setState({ kind: "landing", busy: false, error: message });
      }}
    />
  );
}

interface ReadySessionProps {
  state: Extract<State, { kind: "ready" }>;
  client: ApiClient;
  setState: (update: (previous: State) => State) => void;
  onSignOut: (message: string) => void;
}

function ReadySession({ state, client, setState, onSignOut }: ReadySessionProps) {
  const { session, instrument, drafts } = state;
  const setSession = useCallback(
    (next: Session) => setState((previous) => (previous.kind === "ready" ? { ...previous, session: next } : previous)),
    [setState],
  );
  const refresh = useCallback(async () => setSession(await client.session()), [client, setSession]);
  const context = useMemo<StudyContextValue>(
    () => ({ client, drafts, instrument, session, setSession, refresh, signOut: onSignOut }),
    [client, drafts, instrument, session, setSession, refresh, onSignOut],
  );

  // Unsent drafts go to the server when the connection returns and when the page is hidden
  // (a phone switching apps may never come back to this page).
  useEffect(() => {
    const flushNow = () => void drafts.flush();
    const flushHidden = () => {
      if (document.visibilityState === "hidden") void drafts.flush(true);
    };
    const flushLeaving = () => void drafts.flush(true);
    window.addEventListener("online", flushNow);
    document.addEventListener("visibilitychange", flushHidden);
    window.addEventListener("pagehide", flushLeaving);
    return () => {
      window.removeEventListener("online", flushNow);
      document.removeEventListener("visibilitychange", flushHidden);
      window.removeEventListener("pagehide", flushLeaving);
    };
  }, [drafts]);

  return (
    <StudyContext.Provider value={context}>
      <Frame
        title={session.study.title}
        footer={
          <>
            <HelpAndSupport resources={session.study.support_resources} />
            {isFinal(session) ? null : <Withdraw />}
          </>
        }
      >
        {session.preview ? <p className="badge">Preview: nothing here counts as study data.</p> : null}
        <StepScreen session={session} />
      </Frame>
    </StudyContext.Provider>
  );
}
