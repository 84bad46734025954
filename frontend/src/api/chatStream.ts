// What a chat stream means: `turn` (the message is stored), `delta` (many: concatenate),
// then `done` or `error`. A stream that stops without either (lost connection, server
// restart) is reported as "cut": the app then asks the server what became of the turn.
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

interface TurnEvent {
  turn: StartedTurn;
  support: Support | null;
}
interface DoneEvent {
  turn: Turn;
  annotation: AnnotationStep | null;
}
interface ErrorEvent {
  turn: { number: number };
  error: TurnError;
}

function parse<T>(data: string): T | null {
  try {
    return JSON.parse(data) as T;
  } catch {
    return null;
  }
}

export async function followChatStream(
  response: Response,
  callbacks: StreamCallbacks = {},
): Promise<StreamOutcome> {
  let turnNumber: number | null = null;
  if (!response.body) return { kind: "cut", turnNumber };
  try {
    for await (const { event, data } of readSse(response.body)) {
      if (event === "turn") {
        const body = parse<TurnEvent>(data);
        if (!body) continue;
        turnNumber = body.turn.number;
        callbacks.onTurn?.(body.turn, body.support ?? null);
      } else if (event === "delta") {
        const body = parse<{ text: string }>(data);
        if (body && typeof body.text === "string") callbacks.onDelta?.(body.text);
      } else if (event === "done") {
        const body = parse<DoneEvent>(data);
        if (body) return { kind: "done", turn: body.turn, annotation: body.annotation };
      } else if (event === "error") {
        const body = parse<ErrorEvent>(data);
        if (body) return { kind: "failed", turnNumber: body.turn.number, error: body.error };
      }
    }
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    // The connection broke mid-reply: fall through to "cut".
  }
  return { kind: "cut", turnNumber };
}
