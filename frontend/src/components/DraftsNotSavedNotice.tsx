// Said when the server refused to keep a draft (past its limits): what was typed is still in
// this browser (localStorage and memory), and the participant should know it lives only here.
import { useCallback, useSyncExternalStore } from "react";
import { useOptionalStudy } from "../StudyContext";

export const DRAFTS_NOT_SAVED =
  "Some of what you typed could not be saved on our server. It is kept in this browser, " +
  "so nothing is lost: please finish the study on this device.";

export function DraftsNotSavedNotice() {
  const drafts = useOptionalStudy()?.drafts ?? null;
  const subscribe = useCallback((listener: () => void) => drafts?.subscribe(listener) ?? (() => undefined), [drafts]);
  const refused = useSyncExternalStore(subscribe, () => drafts?.refused ?? false);
  if (!refused) return null;
  return (
    <div className="notice" role="status">
      <p>{DRAFTS_NOT_SAVED}</p>
    </div>
  );
}
