// Sends a message (or retries a failed reply) and follows the reply's stream. While it runs,
// `live` holds the reply as it arrives. The stream's last word (`done` or `error`) goes into
// the session store at once, then the session is read again so the server's record decides
// what is shown next. Nothing leaves the screen before its replacement is there: when that
// read fails, the live copy stays and `reloadFailed` offers to try again. Leaving the chat
// aborts the stream and the reads.
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, NETWORK } from "../api/client";
import { followChatStream } from "../api/chatStream";
import type { AnnotationStep, Support, Turn } from "../api/types";
import { useStudy } from "../StudyContext";

export interface LiveTurn {
  number: number | null; // null until the server has stored the message
  userMessage: string;
  text: string;
  queued?: boolean; // the model is busy: the reply waits for it (until its first text)
}

const CUT_MESSAGE = "The connection was lost while the reply was being written. Your message is saved.";

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

export function useChatStream(onSupport: (support: Support) => void) {
  const { client, refresh, mergeTurn, signOut } = useStudy();
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [lastStep, setLastStep] = useState<AnnotationStep | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [reloadFailed, setReloadFailed] = useState(false);
  // An exception that is not the server's answer is a bug: it goes to the error boundary.
  const [crash, setCrash] = useState<{ error: unknown } | null>(null);
  if (crash) throw crash.error;
  const mounted = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    mounted.current = controller;
    return () => controller.abort();
  }, []);

  /** Read the session; only then does the live copy go. */
  const settle = useCallback(
    async (signal: AbortSignal) => {
      try {
        await refresh(signal);
      } catch (caught) {
        if (signal.aborted || isAbort(caught)) return;
        setReloadFailed(true);
        return;
      }
      setReloadFailed(false);
      setLive(null);
    },
    [refresh],
  );

  const follow = useCallback(
    async (open: (signal: AbortSignal) => Promise<Response>, userMessage: string, number: number | null, key: string | null, onStored?: () => void, onUnreached?: () => void) => {
      const signal = mounted.current?.signal;
      if (!signal || signal.aborted) return;
      setLive({ number, userMessage, text: "" });
      setError(null);
      setReloadFailed(false);
      try {
        const outcome = await followChatStream(await open(signal), {
          onTurn: (turn, support) => {
            onStored?.();
            setLive((current) => current && { ...current, number: turn.number });
            if (support) onSupport(support);
          },
          onQueued: () => setLive((current) => current && { ...current, queued: true }),
          onDelta: (text) => setLive((current) => current && { ...current, text: current.text + text }),
        });
        if (outcome.kind === "done") {
          setLastStep(outcome.annotation);
          mergeTurn(outcome.turn);
          setLive(null);
        } else if (outcome.kind === "failed") {
          mergeTurn({
            number: outcome.turnNumber,
            status: "failed",
            user_message: userMessage,
            reply: "",
            idempotency_key: key,
            error: outcome.error,
            annotation_submitted: false,
          });
          setLive(null);
        } else {
          setError(new ApiError(0, "cut", CUT_MESSAGE));
        }
      } catch (caught) {
        if (signal.aborted || isAbort(caught)) return;
        if (!(caught instanceof ApiError)) {
          setCrash({ error: caught });
          return;
        }
        // The request never reached the server: the caller's outbox keeps the message (no error).
        if (caught.code === NETWORK && onUnreached) {
          setLive(null);
          onUnreached();
          return;
        }
        if (caught.code === "unauthenticated") signOut(caught.message);
        setError(caught);
      }
      await settle(signal);
    },
    [mergeTurn, onSupport, settle, signOut],
  );

  const send = useCallback(
    (text: string, key: string, onStored: () => void, onUnreached?: () => void) =>
      follow((signal) => client.sendMessage(text, key, signal), text, null, key, onStored, onUnreached),
    [client, follow],
  );
  const retry = useCallback(
    (turn: Turn) => follow((signal) => client.retryTurn(turn.number, signal), turn.user_message, turn.number, turn.idempotency_key),
    [client, follow],
  );
  const retryReload = useCallback(() => {
    const signal = mounted.current?.signal;
    if (signal) void settle(signal);
  }, [settle]);
  return { live, lastStep, error, reloadFailed, send, retry, retryReload };
}
