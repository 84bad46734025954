// Sends a message (or retries a failed reply) and follows the reply's stream. While it runs,
// `live` holds the reply as it arrives. The stream's last word (`done` or `error`) goes into
// the session store at once, then the session is read again so the server's record decides
// what is shown next. Nothing leaves the screen before its replacement is there: when that
// read fails, the live copy stays and `reloadFailed` offers to try again. Leaving the chat
// aborts the stream and the reads.
//
// A reply belongs to the server, not to the connection: when the stream is cut (a dropped
// connection, the browser offline, a phone that put the page to sleep) the reply goes on
// there, and this hook re-attaches to it once the browser is online and the page visible
// (GET turns/<n>/stream with the last event's id), showing the rest as it comes. A page
// loaded while a reply is on its way re-attaches the same way (`attach`), from the start.
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
// How often a cut stream is re-attached before the app gives up and says so (waiting for the
// browser to be online and visible again does not count), and the pause before each attempt.
const MAX_REATTACH = 8;
const REATTACH_PAUSE_MS = [0, 500, 1000, 2000, 4000];

type Open = (signal: AbortSignal) => Promise<Response>;

/** Resolves once the browser says it is online and the page is visible, after `pauseMs`. */
function reachable(signal: AbortSignal, pauseMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      if (signal.aborted) return finish(new DOMException("aborted", "AbortError"));
      if (navigator.onLine !== false && document.visibilityState !== "hidden") finish();
    };
    const finish = (error?: unknown) => {
      window.removeEventListener("online", check);
      document.removeEventListener("visibilitychange", check);
      signal.removeEventListener("abort", check);
      if (error) reject(error);
      else resolve();
    };
    timer = setTimeout(() => {
      timer = undefined;
      window.addEventListener("online", check);
      document.addEventListener("visibilitychange", check);
      check();
    }, pauseMs);
    signal.addEventListener("abort", () => {
      if (timer !== undefined) clearTimeout(timer);
      check();
    });
  });
}

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
    async (open: Open, userMessage: string, number: number | null, key: string | null, onStored?: () => void, onUnreached?: () => void) => {
      const signal = mounted.current?.signal;
      if (!signal || signal.aborted) return;
      setLive({ number, userMessage, text: "" });
      setError(null);
      setReloadFailed(false);
      let turnNumber = number;
      let lastId: string | null = null;
      let opener = open;
      let attempts = 0;
      let stored = false;
      // After a cut (or a failed re-attach): wait, then open the turn's stream again; false when
      // it is not worth it (no turn yet, or too many attempts).
      const reattach = async (): Promise<boolean> => {
        if (turnNumber === null || attempts >= MAX_REATTACH) return false;
        await reachable(signal, REATTACH_PAUSE_MS[Math.min(attempts, REATTACH_PAUSE_MS.length - 1)] ?? 0);
        attempts += 1;
        const [turn, since] = [turnNumber, lastId];
        opener = (s) => client.followTurn(turn, since, s);
        return true;
      };
      for (;;) {
        try {
          const outcome = await followChatStream(await opener(signal), {
            onTurn: (turn, support) => {
              if (!stored) onStored?.();
              stored = true;
              turnNumber = turn.number;
              // A re-attach from the start sends the text so far again: it replaces what is shown.
              setLive((current) => current && { ...current, number: turn.number, text: "" });
              if (support) onSupport(support);
            },
            onId: (id) => {
              lastId = id;
            },
            onQueued: () => setLive((current) => current && { ...current, queued: true }),
            onDelta: (text) => setLive((current) => current && { ...current, text: current.text + text, queued: false }),
          });
          if (outcome.kind === "cut") {
            if (outcome.turnNumber !== null) turnNumber = outcome.turnNumber;
            if (await reattach()) continue;
          }
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
          // The message never reached the server: the caller's outbox keeps it (no error).
          if (caught.code === NETWORK && onUnreached && opener === open) {
            setLive(null);
            onUnreached();
            return;
          }
          if (caught.code === "unauthenticated") signOut(caught.message);
          // The network failed while re-attaching: the reply still goes on; try again.
          else if (caught.status === 0 && opener !== open && (await reattach().catch(() => false))) continue;
          setError(caught);
        }
        break;
      }
      await settle(signal);
    },
    [client, mergeTurn, onSupport, settle, signOut],
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
  /** Follow a reply that was on its way when the page loaded (no new model call). */
  const attach = useCallback(
    (turn: Turn) => follow((signal) => client.followTurn(turn.number, null, signal), turn.user_message, turn.number, turn.idempotency_key),
    [client, follow],
  );
  const retryReload = useCallback(() => {
    const signal = mounted.current?.signal;
    if (signal) void settle(signal);
  }, [settle]);
  return { live, lastStep, error, reloadFailed, send, retry, attach, retryReload };
}
