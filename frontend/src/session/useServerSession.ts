// The one store of the server's session: every answer that carries the session (a step's POST,
// a read, a stream's final turn) goes through it, and answers to requests that were overtaken
// by a newer one are dropped (RequestGate), so polls can overlap without the screen going back.
import { useCallback, useState } from "react";
import type { ApiClient } from "../api/client";
import type { Session, Turn } from "../api/types";
import { RequestGate } from "./requestGate";
import { withTurn } from "./withTurn";

export interface ServerSession {
  session: Session;
  /** Show the session a step's request answered with. */
  setSession: (session: Session) => void;
  /** Show one turn as a stream reported it, before the session is read again. */
  mergeTurn: (turn: Turn) => void;
  /** Read the session again; an answer overtaken by a newer one is ignored. */
  refresh: (signal?: AbortSignal) => Promise<void>;
}

export function useServerSession(client: ApiClient, initial: Session): ServerSession {
  const [session, setState] = useState(initial);
  const [gate] = useState(() => new RequestGate());

  const setSession = useCallback(
    (next: Session) => {
      gate.supersede();
      setState(next);
    },
    [gate],
  );
  const mergeTurn = useCallback(
    (turn: Turn) => {
      gate.supersede();
      setState((current) => withTurn(current, turn));
    },
    [gate],
  );
  const refresh = useCallback(
    async (signal?: AbortSignal) => {
      const ticket = gate.issue();
      const next = await client.session(signal);
      if (gate.accept(ticket)) setState(next);
    },
    [client, gate],
  );
  return { session, setSession, mergeTurn, refresh };
}
