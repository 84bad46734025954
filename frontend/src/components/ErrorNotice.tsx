// A refusal or failure, announced to screen readers as soon as it appears; or, calmer (a
// status, not an alert), the notice of work waiting for a connection (useAction WAITING).
import type { ReactNode } from "react";
import type { ApiError } from "../api/client";
import { WAITING } from "../outbox/connection";
import { useTranslation } from "react-i18next";

/** The app's own errors (not the server's) in the participant's language, by code. */
const OWN_CODES = new Set(["network", "internal", "cut", WAITING]);

export function ErrorNotice({ error, children }: { error: ApiError | string | null; children?: ReactNode }) {
  const { t } = useTranslation();
  if (!error) return null;
  if (typeof error !== "string" && error.code === WAITING) {
    return (
      <div className="notice notice-wait" role="status">
        <p>{t("errors.waiting_for_connection")}</p>
      </div>
    );
  }
  return (
    <div className="notice notice-error" role="alert">
      <p>{typeof error === "string" ? error : OWN_CODES.has(error.code) ? t(`errors.${error.code as "network" | "internal" | "cut"}`) : error.code.startsWith("http_") ? t("errors.server") : error.message}</p>
      {children}
    </div>
  );
}
