// The chat's way to send: a message goes at once when it can; offline (the browser says so,
// or the send never reached the server) it waits in the outbox, shown as waiting, and goes by
// itself with the same idempotency key when the connection is back (outbox/connection.ts), or
// after a reload. It leaves the outbox as soon as the server has stored it (the stream's turn
// event), so a reload during the reply does not send it again.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { Turn } from "../api/types";
import { safeSessionStorage } from "../session/storage";
import { useStudy } from "../StudyContext";
import { browserOffline, useRetryWhenOnline } from "./connection";
import { Outbox, type OutboxMessage } from "./outbox";

/** How one attempt ended: stored, refused by the server (it says why), or never arrived. */
export type Delivery = "stored" | "refused" | "unreached";

/** Send one message now (the chat stream). `onStored` runs when the server has stored it. */
export type Deliver = (message: OutboxMessage, onStored: () => void) => Promise<Delivery>;

export interface MessageOutbox {
  /** The message waiting for a connection, if any. */
  waiting: OutboxMessage | null;
  /** The key of the last message this page saw stored (its draft can go). */
  delivered: string | null;
  submit: (text: string, key: string, onStored?: () => void) => Promise<void>;
}

export function useMessageOutbox(turns: Turn[], deliver: Deliver): MessageOutbox {
  const { drafts, client } = useStudy();
  const outbox = useMemo(() => new Outbox(drafts.namespace, safeSessionStorage()), [drafts.namespace]);
  const messages = useSyncExternalStore(
    useCallback((listener: () => void) => outbox.subscribe(listener), [outbox]),
    () => outbox.messages,
  );
  const [delivered, setDelivered] = useState<string | null>(null);
  const [inFlight, setInFlight] = useState<string | null>(null); // on its way: not "waiting"
  const sending = useRef(false);
  // The Composer's own callback, for a message sent from this page (not after a reload).
  const callbacks = useRef(new Map<string, () => void>());

  const attempt = useCallback(
    async (message: OutboxMessage) => {
      sending.current = true;
      setInFlight(message.key);
      try {
        const outcome = await deliver(message, () => {
          outbox.remove(message.key);
          setDelivered(message.key);
          callbacks.current.get(message.key)?.();
        });
        // Refused: the server said why (the chat shows it); the draft keeps the text.
        if (outcome !== "unreached") {
          outbox.remove(message.key);
          callbacks.current.delete(message.key);
        }
        return outcome;
      } finally {
        sending.current = false;
        setInFlight(null);
      }
    },
    [deliver, outbox],
  );

  const flush = useCallback(async () => {
    if (sending.current || browserOffline()) return;
    for (const message of outbox.messages) {
      if ((await attempt(message)) === "unreached") return; // still no connection: keep the rest
    }
  }, [attempt, outbox]);

  // A message stored before the page went away (its turn is in the session): nothing to send.
  useEffect(() => {
    for (const message of outbox.messages) {
      if (turns.some((turn) => turn.idempotency_key === message.key)) outbox.remove(message.key);
    }
  }, [turns, outbox]);

  // After a reload: what waited goes now if it can (once, after the first render: the
  // check above has dropped what was stored already).
  const latestFlush = useRef(flush);
  useEffect(() => {
    latestFlush.current = flush;
  }, [flush]);
  useEffect(() => {
    const timer = setTimeout(() => void latestFlush.current(), 0);
    return () => clearTimeout(timer);
  }, []);

  const waiting = messages.find((message) => message.key !== inFlight) ?? null;
  useRetryWhenOnline(client, waiting !== null, () => void flush());

  const submit = useCallback(
    async (text: string, key: string, onStored?: () => void) => {
      if (onStored) callbacks.current.set(key, onStored);
      // Kept before the request leaves: a reload while it is on its way still has it.
      outbox.put({ text, key });
      if (browserOffline() || sending.current) return;
      await attempt({ text, key });
    },
    [attempt, outbox],
  );

  return { waiting, delivered, submit };
}
