// Runs one request for a screen: keeps it from being sent twice, and turns refusals into a
// message. Refusals that mean "the server's state moved on" (another tab, a stale page) are
// followed by a refresh so the right screen shows.
// Offline (the browser says so, or the request never reached the server), the work waits
// instead of failing: `error` is then the calm WAITING notice (not an alert), nothing is
// busy, and the same work (the same answers) goes by itself when the connection is back
// (outbox/connection.ts). A step has no idempotency key: sent twice, the server answers the
// second with already_submitted or wrong_step, which is followed by a refresh like any
// stale page. What was typed stays a draft until the work succeeds, so a reload loses nothing.
// An exception that is not the server's answer is a bug: it is reported (errors/report.ts).
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "./api/client";
import { reportError } from "./errors/report";
import { browserOffline, isUnreached, useRetryWhenOnline, WAITING } from "./outbox/connection";
import { useStudy } from "./StudyContext";

const STATE_MOVED = new Set(["wrong_step", "already_submitted", "withdrawn", "screened_out"]);

export const WAITING_MESSAGE =
  "Waiting for a connection: your answers are saved and will be sent when you are back online.";

export interface Action {
  busy: boolean;
  /** The refusal to show, or the WAITING notice while the work waits for a connection. */
  error: ApiError | null;
  waiting: boolean;
  /** Resolves true once the work succeeded (after waiting, if it had to), false otherwise. */
  run: (work: () => Promise<void>) => Promise<boolean>;
  setError: (error: ApiError | null) => void;
}

type Work = () => Promise<void>;
interface Queued {
  work: Work;
  resolve: (done: boolean) => void;
}

export function useAction(): Action {
  const { client, refresh, signOut, session } = useStudy();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [waiting, setWaiting] = useState(false);
  const running = useRef(false);
  const queued = useRef<Queued | null>(null);
  const step = session.step;

  /** One try: "done", "failed" (the error is set) or "unreached" (nothing is set). */
  const attempt = useCallback(
    async (work: Work): Promise<"done" | "failed" | "unreached"> => {
      running.current = true;
      setBusy(true);
      setError(null);
      try {
        await work();
        return "done";
      } catch (caught) {
        if (isUnreached(caught)) return "unreached";
        // Not the server's answer: a bug of the app. The participant may try again; the
        // study's staff hear of it (once per distinct error).
        if (!(caught instanceof ApiError)) reportError(caught, step);
        const apiError =
          caught instanceof ApiError ? caught : new ApiError(0, "internal", "Something went wrong. Please try again.");
        if (apiError.code === "unauthenticated") signOut(apiError.message);
        else if (STATE_MOVED.has(apiError.code)) await refresh().catch(() => undefined);
        setError(apiError);
        return "failed";
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [refresh, signOut, step],
  );

  const wait = useCallback((work: Work) => {
    setWaiting(true);
    setError(new ApiError(0, WAITING, WAITING_MESSAGE));
    return new Promise<boolean>((resolve) => {
      queued.current = { work, resolve };
    });
  }, []);

  const run = useCallback(
    async (work: Work) => {
      if (running.current) return false; // a double tap must not submit twice
      // A new press replaces the work that waited (its answers are the newer ones).
      queued.current?.resolve(false);
      queued.current = null;
      setWaiting(false);
      if (browserOffline()) return wait(work);
      const outcome = await attempt(work);
      return outcome === "unreached" ? wait(work) : outcome === "done";
    },
    [attempt, wait],
  );

  const retry = useCallback(async () => {
    const entry = queued.current;
    if (!entry || running.current || browserOffline()) return;
    queued.current = null;
    setWaiting(false);
    const outcome = await attempt(entry.work);
    if (outcome === "unreached") {
      queued.current = entry;
      setWaiting(true);
      setError(new ApiError(0, WAITING, WAITING_MESSAGE));
    } else entry.resolve(outcome === "done");
  }, [attempt]);
  useRetryWhenOnline(client, waiting, () => void retry());

  // The screen went (its step moved on): work waiting for it is dropped with it.
  useEffect(
    () => () => {
      queued.current?.resolve(false);
      queued.current = null;
    },
    [],
  );

  const clearError = useCallback((next: ApiError | null) => {
    if (next === null && queued.current) return; // the waiting notice stays until it is sent
    setError(next);
  }, []);
  return { busy, error, waiting, run, setError: clearError };
}
