// Runs one request for a screen: keeps it from being sent twice, and turns refusals into a
// message. Refusals that mean "the server's state moved on" (another tab, a stale page) are
// followed by a refresh so the right screen shows.
import { useCallback, useRef, useState } from "react";
import { ApiError } from "./api/client";
import { useStudy } from "./StudyContext";

const STATE_MOVED = new Set(["wrong_step", "already_submitted", "withdrawn", "screened_out"]);

export interface Action {
  busy: boolean;
  error: ApiError | null;
  run: (work: () => Promise<void>) => Promise<boolean>;
  setError: (error: ApiError | null) => void;
}

export function useAction(): Action {
  const { refresh, signOut } = useStudy();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const running = useRef(false);

  const run = useCallback(
    async (work: () => Promise<void>) => {
      if (running.current) return false; // a double tap must not submit twice
      running.current = true;
      setBusy(true);
      setError(null);
      try {
        await work();
        return true;
      } catch (caught) {
        const apiError =
          caught instanceof ApiError ? caught : new ApiError(0, "internal", "Something went wrong. Please try again.");
        if (apiError.code === "unauthenticated") signOut(apiError.message);
        else if (STATE_MOVED.has(apiError.code)) await refresh().catch(() => undefined);
        setError(apiError);
        return false;
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [refresh, signOut],
  );
  return { busy, error, run, setError };
}
