// The session with one turn as the server last described it (a stream's `done` or `error`),
// so what the stream showed stays on screen even when reading the whole session fails.
import type { Session, Turn } from "../api/types";

export function withTurn(session: Session, turn: Turn): Session {
  if (!session.chat) return session;
  const turns = session.chat.turns.filter((t) => t.number !== turn.number);
  turns.push(turn);
  turns.sort((a, b) => a.number - b.number);
  return { ...session, chat: { ...session.chat, turns } };
}
