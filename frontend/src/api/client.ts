// The participant API client: every call carries `Authorization: Participant <token>` (the
// token lives in sessionStorage, never in a cookie, so no CSRF token is needed) and every
// refusal becomes an ApiError with the server's stable `code`.
import type {
  AnnotationPayload,
  AnnotationStep,
  ClientErrorReport,
  ErrorBody,
  Instrument,
  PostSurveyPayload,
  ProfilePayload,
  ServerDraft,
  Session,
  StartResult,
} from "./types";

/** `code` of the error raised when the server could not be reached at all. */
export const NETWORK = "network";

const NETWORK_MESSAGE =
  "We could not reach the study server. Please check your connection and try again.";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | null;
  readonly extra: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    field: string | null = null,
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.field = field;
    this.extra = extra;
  }
}

export interface ProlificParams {
  prolificPid: string;
  studyId: string;
  sessionId: string;
}

type Fetch = typeof fetch;

interface CallOptions {
  accept?: string;
  signal?: AbortSignal;
  keepalive?: boolean;
  headers?: Record<string, string>;
}

/** The error a non-2xx response stands for (the API's shape, or a generic one). */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: Partial<ErrorBody> | null;
  try {
    body = (await response.json()) as Partial<ErrorBody>;
  } catch {
    body = null; // a proxy's HTML error page: fall through to the generic message
  }
  const error = body?.error;
  if (error && typeof error.code === "string") {
    const { code, message, field, ...extra } = error;
    return new ApiError(response.status, code, message || "Something went wrong.", field ?? null, extra);
  }
  return new ApiError(
    response.status,
    "http_" + response.status,
    "Something went wrong on our side. Please try again in a moment.",
  );
}

export class ApiClient {
  private token: string | null = null;
  private readonly base: string;
  private readonly fetcher: Fetch;
  private readonly reachable = new Set<() => void>();

  constructor(base: string, fetcher?: Fetch) {
    this.base = base.endsWith("/") ? base : base + "/";
    // Bound late so tests can replace globalThis.fetch after construction.
    this.fetcher = fetcher ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Be told whenever the server answers (any status: it is reachable again), so work that
   * waits for a connection can go; returns the unsubscribe. */
  onReachable(listener: () => void): () => void {
    this.reachable.add(listener);
    return () => void this.reachable.delete(listener);
  }

  /** Every later call carries this participant's token. */
  authorize(token: string | null): void {
    this.token = token;
  }

  /** A raw call: the Response when 2xx, else the API's error as an ApiError. */
  async call(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Response> {
    const headers = new Headers({ Accept: options.accept ?? "application/json" });
    if (this.token) headers.set("Authorization", `Participant ${this.token}`);
    if (body !== undefined) headers.set("Content-Type", "application/json");
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    let response: Response;
    try {
      response = await this.fetcher(this.base + path, {
        method,
        headers,
        signal: options.signal,
        keepalive: options.keepalive,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "omit", // the token is the only credential; no cookie should ride along
        cache: "no-store",
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") throw error;
      throw new ApiError(0, NETWORK, NETWORK_MESSAGE);
    }
    // After this call's own caller has its answer: a listener's request must not overtake it.
    if (this.reachable.size) queueMicrotask(() => this.reachable.forEach((listener) => listener()));
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  async json<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const response = await this.call(method, path, body, { signal });
    return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
  }

  /** POST that answers with Server-Sent Events (the chat); the caller reads response.body. */
  stream(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    return this.call("POST", path, body, { accept: "text/event-stream", signal });
  }

  // --- the study's steps --------------------------------------------------------------------

  /** `language`: the one the app chose (link, browser, study default); the server records it,
   * or the study's default when the study does not enable it. */
  async start(slug: string, params: ProlificParams, language?: string): Promise<StartResult> {
    const result = await this.json<StartResult>("POST", `${encodeURIComponent(slug)}/start`, {
      prolific_pid: params.prolificPid,
      study_id: params.studyId,
      session_id: params.sessionId,
      ...(language ? { language } : {}),
    });
    this.authorize(result.token);
    return result;
  }

  session(signal?: AbortSignal): Promise<Session> {
    return this.json("GET", "session", undefined, signal);
  }

  instrument(signal?: AbortSignal): Promise<Instrument> {
    return this.json("GET", "instrument", undefined, signal);
  }

  consent(consentVersion: string, agree: boolean): Promise<Session> {
    return this.json("POST", "consent", { consent_version: consentVersion, agree });
  }

  /** Question id -> the chosen option's id, for every question of the comprehension check. */
  comprehension(answers: Record<string, string>): Promise<Session> {
    return this.json("POST", "comprehension", { answers });
  }

  profile(payload: ProfilePayload): Promise<Session> {
    return this.json("POST", "profile", payload);
  }

  panas(phase: "pre" | "post", items: Record<string, number>): Promise<Session> {
    return this.json("POST", `panas/${phase}`, { items });
  }

  /** `otherText`: the participant's own words for a topic that asks for them. */
  topic(category: string, subtopic: string, otherText?: Record<string, string>): Promise<Session> {
    return this.json("POST", "topic", { category, subtopic, ...(otherText ? { other_text: otherText } : {}) });
  }

  sendMessage(text: string, idempotencyKey: string, signal?: AbortSignal): Promise<Response> {
    return this.stream("messages", { text, idempotency_key: idempotencyKey }, signal);
  }

  retryTurn(number: number, signal?: AbortSignal): Promise<Response> {
    return this.stream(`turns/${number}/retry`, {}, signal);
  }

  /** Re-attach to a turn's reply (it runs on the server whoever reads it): after
   * `lastEventId` when given, else from the start. Never a new model call. */
  followTurn(number: number, lastEventId: string | null, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = lastEventId ? { "Last-Event-ID": lastEventId } : {};
    return this.call("GET", `turns/${number}/stream`, undefined, { accept: "text/event-stream", signal, headers });
  }

  annotationStep(turn: number, signal?: AbortSignal): Promise<AnnotationStep> {
    return this.json("GET", `turns/${turn}/annotation`, undefined, signal);
  }

  submitAnnotation(turn: number, payload: AnnotationPayload): Promise<AnnotationStep> {
    return this.json("POST", `turns/${turn}/annotation`, payload);
  }

  finish(): Promise<Session> {
    return this.json("POST", "finish");
  }

  postSurvey(payload: PostSurveyPayload): Promise<Session> {
    return this.json("POST", "post-survey", payload);
  }

  withdraw(): Promise<Session> {
    return this.json("POST", "withdraw", { confirm: true });
  }

  /** An unexpected error of the app, for the study's staff (sent with the token when there is
   * one; before a session, anonymously). */
  async reportClientError(slug: string, report: ClientErrorReport): Promise<void> {
    await this.call("POST", `${encodeURIComponent(slug)}/client-errors`, report);
  }

  // --- drafts ---------------------------------------------------------------------------------

  drafts(signal?: AbortSignal): Promise<ServerDraft[]> {
    return this.json("GET", "drafts", undefined, signal);
  }

  /** keepalive lets a save started while the page unloads still reach the server. */
  async saveDraft(key: string, data: unknown, keepalive = false): Promise<void> {
    await this.call("PUT", `drafts/${encodeURIComponent(key)}`, { data }, { keepalive });
  }

  async deleteDraft(key: string): Promise<void> {
    await this.call("DELETE", `drafts/${encodeURIComponent(key)}`);
  }
}
