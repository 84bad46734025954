// What a chat stream means: `turn` (the message is stored), `delta` (many: concatenate),
// then `done` or `error`. A stream that stops without either (lost connection, server
// restart) is reported as "cut": the app then asks the server what became of the turn.
// Only reading the network is caught here: an event that does not have the documented shape
// is skipped (a `done` that follows still counts), and an exception thrown by a callback is
// a bug of the app, which goes on to the caller instead of passing for a lost connection.
import { readSse } from "./sse";
import type { AnnotationStep, Support, Turn, TurnError } from "./types";

export interface StartedTurn {
  number: number;
  user_message: string;
}

export interface StreamCallbacks {
  onTurn?: (turn: StartedTurn, support: Support | null) => void;
  onDelta?: (text: string) => void;
}

export type StreamOutcome =
  | { kind: "done"; turn: Turn; annotation: AnnotationStep | null }
  | { kind: "failed"; turnNumber: number; error: TurnError }
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

/** A Turn as the schema documents it (checked, since the stream is outside the OpenAPI types). */
function asTurn(value: unknown): Turn | null {
  const turn = object(value);
  if (!turn || typeof turn.number !== "number" || typeof turn.status !== "string" || !TURN_STATUSES.has(turn.status)) return null;
  if (typeof turn.user_message !== "string" || typeof turn.reply !== "string") return null;
  if (typeof turn.annotation_submitted !== "boolean") return null;
  return turn as unknown as Turn;
}

function asAnnotationStep(value: unknown): AnnotationStep | null {
  const step = object(value);
  const comparison = object(step?.comparison);
  if (!step || typeof step.turn !== "number" || typeof step.draft_key !== "string" || !comparison) return null;
  if (!Array.isArray(step.behaviour_questions) || !Array.isArray(comparison.questions)) return null;
  return step as unknown as AnnotationStep;
}

function asTurnError(value: unknown): TurnError | null {
  const error = object(value);
  if (!error || typeof error.message !== "string") return null;
  return { reason: String(error.reason ?? "failed"), message: error.message, retryable: error.retryable !== false };
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

export async function followChatStream(response: Response, callbacks: StreamCallbacks = {}): Promise<StreamOutcome> {
  let turnNumber: number | null = null;
  if (!response.body) return { kind: "cut", turnNumber };
  const events = readSse(response.body);
  for (;;) {
    let next: IteratorResult<{ event: string; data: string }>;
    try {
      next = await events.next();
    } catch (error) {
      if (isAbort(error)) throw error;
      return { kind: "cut", turnNumber }; // the connection broke mid-reply
    }
    if (next.done) return { kind: "cut", turnNumber };
    const { event, data } = next.value;
    const body = parse(data);
    if (!body) continue;
    if (event === "turn") {
      const turn = object(body.turn);
      if (!turn || typeof turn.number !== "number" || typeof turn.user_message !== "string") continue;
      turnNumber = turn.number;
      const support = object(body.support);
      callbacks.onTurn?.(
        { number: turn.number, user_message: turn.user_message },
        support && typeof support.resources === "string" ? { resources: support.resources } : null,
      );
    } else if (event === "delta") {
      if (typeof body.text === "string") callbacks.onDelta?.(body.text);
    } else if (event === "done") {
      const turn = asTurn(body.turn);
      if (turn) {
        await events.return(undefined);
        return { kind: "done", turn, annotation: asAnnotationStep(body.annotation) };
      }
    } else if (event === "error") {
      const turn = object(body.turn);
      const error = asTurnError(body.error);
      if (turn && typeof turn.number === "number" && error) {
        await events.return(undefined);
        return { kind: "failed", turnNumber: turn.number, error };
      }
    }
  }
}
