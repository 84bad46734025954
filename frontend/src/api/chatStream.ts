// What a chat stream means: `turn` (the message is stored), `queued` (only when the model is
// busy: the reply waits for it), `delta` (many: concatenate),
// then `done` or `error`. The events' types are generated from the server's schema
// (ChatStreamEvent, which the server's stream is built from); the stream itself is still
// checked as it arrives, since a proxy or an older server may send anything. A stream that
// stops without `done` or `error` (lost connection, a phone switching apps) is reported as
// "cut": the reply goes on on the server, and the app re-attaches to it (GET
// turns/<n>/stream, with the last event's id), which sends the same events from there. Only reading the network is caught here:
// an event without the shape the app relies on is skipped (a `done` that follows still
// counts), and an exception thrown by a callback is a bug of the app, which goes on to the
// caller instead of passing for a lost connection.
import { readSse, type SseEvent } from "./sse";
import type { AnnotationStep, StreamError, StreamEvent, StreamingTurn, Support, Turn } from "./types";

export type StartedTurn = Pick<StreamingTurn, "number" | "user_message">;

export interface StreamCallbacks {
  onTurn?: (turn: StartedTurn, support: Support | null) => void;
  onDelta?: (text: string) => void;
  /** The model is busy: the reply waits its turn (say so, rather than a silent spinner). */
  onQueued?: () => void;
  /** The id of each event that has one: send the last back to resume after it. */
  onId?: (id: string) => void;
}

export type StreamOutcome =
  | { kind: "done"; turn: Turn; annotation: AnnotationStep | null }
  | { kind: "failed"; turnNumber: number; error: StreamError }
  | { kind: "cut"; turnNumber: number | null };

type Json = Record<string, unknown>;

function object(value: unknown): Json | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function parse(data: string): Json | null {
  try {
    return object(JSON.parse(data));
  } catch {
    return null;
  }
}

const TURN_STATUSES = new Set(["pending", "streaming", "done", "failed"]);

function isTurn(value: unknown): boolean {
  const turn = object(value);
  if (!turn || typeof turn.number !== "number" || typeof turn.status !== "string" || !TURN_STATUSES.has(turn.status)) return false;
  return typeof turn.user_message === "string" && typeof turn.reply === "string" && typeof turn.annotation_submitted === "boolean";
}

function isAnnotationStep(value: unknown): boolean {
  const step = object(value);
  const comparison = object(step?.comparison);
  if (!step || typeof step.turn !== "number" || typeof step.draft_key !== "string" || !comparison) return false;
  return Array.isArray(step.behaviour_questions) && Array.isArray(comparison.questions);
}

function support(value: unknown): Support | null {
  const given = object(value);
  if (!given || typeof given.resources !== "string") return null;
  return { resources: given.resources, turn: typeof given.turn === "number" ? given.turn : null };
}

/** The event as the schema types it, or null when it lacks what the app relies on. */
function decode(event: string, data: string): StreamEvent | null {
  const body = parse(data);
  if (!body) return null;
  const turn = object(body.turn);
  switch (event) {
    case "turn":
      if (!turn || typeof turn.number !== "number" || typeof turn.user_message !== "string") return null;
      return { event, data: { turn: { number: turn.number, status: "streaming", user_message: turn.user_message }, support: support(body.support) } };
    case "queued":
      return { event, data: { reason: "model_busy" } }; // a newer reason still means "waiting"
    case "delta":
      return typeof body.text === "string" ? { event, data: { text: body.text } } : null;
    case "done":
      if (!isTurn(body.turn)) return null;
      return { event, data: { turn: body.turn as Turn, annotation: isAnnotationStep(body.annotation) ? (body.annotation as AnnotationStep) : null } };
    case "error": {
      const error = object(body.error);
      if (!turn || typeof turn.number !== "number" || !error || typeof error.message !== "string") return null;
      // An unknown reason from a newer server is kept as it came: it is only logged.
      const reason = (typeof error.reason === "string" ? error.reason : "internal") as StreamError["reason"];
      return { event, data: { turn: { number: turn.number, status: "failed" }, error: { reason, message: error.message, retryable: error.retryable !== false } } };
    }
    default:
      return null;
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

export async function followChatStream(response: Response, callbacks: StreamCallbacks = {}): Promise<StreamOutcome> {
  let turnNumber: number | null = null;
  if (!response.body) return { kind: "cut", turnNumber };
  const events = readSse(response.body);
  for (;;) {
    let next: IteratorResult<SseEvent>;
    try {
      next = await events.next();
    } catch (error) {
      if (isAbort(error)) throw error;
      return { kind: "cut", turnNumber }; // the connection broke mid-reply
    }
    if (next.done) return { kind: "cut", turnNumber };
    const event = decode(next.value.event, next.value.data);
    if (!event) continue;
    if (next.value.id !== undefined) callbacks.onId?.(next.value.id);
    switch (event.event) {
      case "turn":
        turnNumber = event.data.turn.number;
        callbacks.onTurn?.({ number: event.data.turn.number, user_message: event.data.turn.user_message }, event.data.support);
        break;
      case "queued":
        callbacks.onQueued?.();
        break;
      case "delta":
        callbacks.onDelta?.(event.data.text);
        break;
      case "done":
        await events.return(undefined);
        return { kind: "done", turn: event.data.turn, annotation: event.data.annotation };
      case "error":
        await events.return(undefined);
        return { kind: "failed", turnNumber: event.data.turn.number, error: event.data.error };
    }
  }
}
