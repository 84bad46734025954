// The app: start or resume a session, then show the step the server says comes next.
// Resuming needs nothing but this tab's stored token, or the study link again (the same
// PROLIFIC_PID resumes the same participant with a new token).
import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { ApiClient, ApiError, NETWORK, type ProlificParams } from "./api/client";
import type { Instrument, Session } from "./api/types";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { ErrorNotice } from "./components/ErrorNotice";
import { HelpAndSupport } from "./components/HelpAndSupport";
import { Screen } from "./components/Screen";
import { Withdraw } from "./components/Withdraw";
import type { AppConfig } from "./config";
import { DraftStore } from "./drafts/store";
import { errorReporter } from "./errors/report";
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
import { isFinal } from "./session/steps";
import { StepScreen } from "./StepScreen";
import { StudyContext, useStudyValue } from "./StudyContext";
import { useTranslation } from "react-i18next";
import { i18n, switchLanguage } from "./i18n";
import { chooseLanguage, requestedLanguage } from "./i18n/languages";

type Ready = { kind: "ready"; session: Session; instrument: Instrument; drafts: DraftStore };
type State =
  | { kind: "loading"; stored: StoredSession }
  | { kind: "landing"; busy: boolean; error: ApiError | string | null }
  | { kind: "unreachable"; error: ApiError; stored: StoredSession }
  | Ready;

function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, "internal", i18n.t("errors.internal"));
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** A refusal at start, with the screen-out code when the study is full. */
function startMessage(error: ApiError): string {
  const code = typeof error.extra.screenout_code === "string" ? error.extra.screenout_code : "";
  return code ? i18n.t("app.yourCode", { message: error.message, code }) : error.message;
}

function Frame({ title, children, footer }: { title?: string; children: ReactNode; footer?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <header className="site-header">
        <span className="brand">{title ?? t("app.brand")}</span>
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

/** Where the app starts: resuming this tab's session, or the landing page. */
function firstState(slug: string, params: ProlificParams, previewToken: string | null): State {
  if (previewToken) {
    saveStoredSession(slug, { token: previewToken, prolificPid: previewPid(previewToken), studyId: "", sessionId: "" });
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  const stored = loadStoredSession(slug);
  // A link with another participant's id (a shared computer) must not resume this one.
  if (!stored || (params.prolificPid && params.prolificPid !== stored.prolificPid)) {
    return { kind: "landing", busy: false, error: null };
  }
  return { kind: "loading", stored };
}

export function App({ config, search = window.location.search, hash = window.location.hash }: AppProps) {
  const client = useMemo(() => new ApiClient(config.apiBase), [config.apiBase]);
  const params = useMemo(() => prolificParams(search), [search]);
  const [state, setState] = useState<State>(() => firstState(config.slug, params, tokenFromFragment(hash)));
  const { t } = useTranslation();
  // Before the session says otherwise: the link's language, the browser's, or the study's default.
  const [chosen] = useState(() => {
    const language = chooseLanguage({
      requested: requestedLanguage(search),
      browser: typeof navigator === "undefined" ? [] : navigator.languages,
      enabled: config.languages ?? [],
      fallback: config.defaultLanguage ?? "en",
    });
    void switchLanguage(language);
    return language;
  });
  // Unexpected errors go to the study's staff, with this tab's token once it has one.
  useEffect(() => {
    errorReporter.connect((report) => client.reportClientError(config.slug, report));
    return () => errorReporter.connect(null);
  }, [client, config.slug]);

  const enter = useCallback(
    async (stored: StoredSession, known: Session | null, signal?: AbortSignal): Promise<Ready> => {
      client.authorize(stored.token);
      const [session, instrument] = await Promise.all([known ?? client.session(signal), client.instrument(signal)]);
      // The participant's recorded language wins from now on (the instrument comes in it too).
      await switchLanguage(session.language);
      const drafts = new DraftStore(`${config.slug}:${stored.prolificPid}`, safeLocalStorage(), {
        save: (key, data, keepalive) => client.saveDraft(key, data, keepalive),
        remove: (key) => client.deleteDraft(key),
        list: () => client.drafts(signal),
      });
      // Offline: this browser's copies still count. Aborted: the caller drops the result.
      await drafts.restore().catch(() => undefined);
      return { kind: "ready", session, instrument, drafts };
    },
    [client, config.slug],
  );

  // Resume the stored session; leaving the page (or a new attempt) aborts the reads.
  const resuming = state.kind === "loading" ? state.stored : null;
  useEffect(() => {
    if (!resuming) return;
    const controller = new AbortController();
    enter(resuming, null, controller.signal).then(
      (ready) => {
        if (!controller.signal.aborted) setState(ready);
      },
      (caught: unknown) => {
        if (controller.signal.aborted || isAbort(caught)) return;
        const error = asApiError(caught);
        if (error.code === NETWORK) {
          setState({ kind: "unreachable", error, stored: resuming });
          return;
        }
        clearStoredSession(config.slug);
        setState({ kind: "landing", busy: false, error: error.code === "unauthenticated" ? null : error });
      },
    );
    return () => controller.abort();
  }, [resuming, enter, config.slug]);

  const start = async (startParams: ProlificParams) => {
    setState({ kind: "landing", busy: true, error: null });
    try {
      const result = await client.start(config.slug, startParams, chosen);
      const stored = { ...startParams, token: result.token };
      saveStoredSession(config.slug, stored);
      setState(await enter(stored, result.session));
    } catch (caught) {
      setState({ kind: "landing", busy: false, error: startMessage(asApiError(caught)) });
    }
  };

  const signOut = useCallback(
    (message: string) => {
      clearStoredSession(config.slug);
      setState({ kind: "landing", busy: false, error: message });
    },
    [config.slug],
  );

  if (state.kind === "loading") {
    return (
      <Frame>
        <p role="status" className="loading">
          {t("app.loading")}
        </p>
      </Frame>
    );
  }
  if (state.kind === "unreachable") {
    return (
      <Frame>
        <Screen title={t("app.unreachableTitle")}>
          <ErrorNotice error={state.error} />
          <p>{t("app.unreachableBody")}</p>
          <button type="button" className="primary" onClick={() => setState({ kind: "loading", stored: state.stored })}>
            {t("app.tryAgain")}
          </button>
        </Screen>
      </Frame>
    );
  }
  if (state.kind === "landing") {
    return (
      <Frame>
        <Landing params={params} busy={state.busy} error={state.error} onStart={(p) => void start(p)} />
      </Frame>
    );
  }
  return <ReadySession state={state} client={client} signOut={signOut} />;
}

interface ReadySessionProps {
  state: Ready;
  client: ApiClient;
  signOut: (message: string) => void;
}

function ReadySession({ state, client, signOut }: ReadySessionProps) {
  const { instrument, drafts } = state;
  const context = useStudyValue({ client, drafts, instrument, initialSession: state.session, signOut });
  const { session } = context;
  const { t } = useTranslation();

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
        {session.preview ? <p className="badge">{t("app.preview")}</p> : null}
        <ErrorBoundary key={session.step} screen={session.step} onReset={() => void context.refresh().catch(() => undefined)}>
          <StepScreen session={session} />
        </ErrorBoundary>
      </Frame>
    </StudyContext.Provider>
  );
}
