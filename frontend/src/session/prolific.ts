// The Prolific parameters of a study link (PROLIFIC_PID, STUDY_ID, SESSION_ID). They are kept
// for the whole visit: a reload or a resumed session starts again with the same ids.
import type { ProlificParams } from "../api/client";

export function prolificParams(search: string): ProlificParams {
  const query = new URLSearchParams(search);
  return {
    prolificPid: (query.get("PROLIFIC_PID") ?? "").trim(),
    studyId: (query.get("STUDY_ID") ?? "").trim(),
    sessionId: (query.get("SESSION_ID") ?? "").trim(),
  };
}

/** Prolific's ids are letters, digits, '-' and '_' (the server checks the same). */
export function isValidProlificId(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(value);
}
