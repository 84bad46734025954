// When to try again what waited for a connection: the browser says it is back online, or any
// request reaches the server again (a phone's onLine can say "online" all along behind a dead
// network), or, while the browser believes it is online, every so often.
import { useEffect, useRef } from "react";
import { ApiError, NETWORK, type ApiClient } from "../api/client";

export const RETRY_EVERY_MS = 15_000;

/** `code` of the notice shown while work waits for a connection (ErrorNotice shows it calmly). */
export const WAITING = "waiting_for_connection";

/** The browser says it has no network at all (navigator.onLine is only ever sure of that). */
export function browserOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

/** The request never reached the server (or its answer never came back). */
export function isUnreached(error: unknown): boolean {
  return error instanceof ApiError && error.code === NETWORK;
}

/** Call `retry` on each of those occasions while `active`. */
export function useRetryWhenOnline(client: ApiClient, active: boolean, retry: () => void): void {
  const latest = useRef(retry);
  useEffect(() => {
    latest.current = retry;
  }, [retry]);
  useEffect(() => {
    if (!active) return;
    const again = () => latest.current();
    window.addEventListener("online", again);
    const unsubscribe = client.onReachable(again);
    const timer = setInterval(() => {
      if (!browserOffline()) again();
    }, RETRY_EVERY_MS);
    return () => {
      window.removeEventListener("online", again);
      unsubscribe();
      clearInterval(timer);
    };
  }, [active, client]);
}
