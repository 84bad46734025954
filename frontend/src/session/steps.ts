// What the app knows about the session's steps beyond showing them. Its own module, so the
// step screen (which imports every screen) and the screens' frame (components/Screen) both
// read it without importing each other.
import type { Session } from "../api/types";

/** Steps after which there is nothing left to withdraw from. */
export function isFinal(session: Session): boolean {
  return session.step === "complete" || session.step === "screened_out" || session.step === "withdrawn";
}
