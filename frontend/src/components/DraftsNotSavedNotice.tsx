// Said when the server refused to keep a draft (past its limits): what was typed is still in
// this browser (localStorage and memory), and the participant should know it lives only here.
import { useCallback, useSyncExternalStore } from "react";
import { useOptionalStudy } from "../StudyContext";
import { useTranslation } from "react-i18next";
import en from "../i18n/locales/en";

export const DRAFTS_NOT_SAVED = en.drafts.notSaved; // what the tests look for

export function DraftsNotSavedNotice() {
  const drafts = useOptionalStudy()?.drafts ?? null;
  const { t } = useTranslation();
  const subscribe = useCallback((listener: () => void) => drafts?.subscribe(listener) ?? (() => undefined), [drafts]);
  const refused = useSyncExternalStore(subscribe, () => drafts?.refused ?? false);
  if (!refused) return null;
  return (
    <div className="notice" role="status">
      <p>{t("drafts.notSaved")}</p>
    </div>
  );
}
