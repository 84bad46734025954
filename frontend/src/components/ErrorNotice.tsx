// A refusal or failure, announced to screen readers as soon as it appears; or, calmer (a
// status, not an alert), the notice of work waiting for a connection (useAction WAITING).
import type { ReactNode } from "react";
import type { ApiError } from "../api/client";
import { WAITING } from "../outbox/connection";

export function ErrorNotice({ error, children }: { error: ApiError | string | null; children?: ReactNode }) {
  if (!error) return null;
  if (typeof error !== "string" && error.code === WAITING) {
    return (
      <div className="notice notice-wait" role="status">
        <p>{error.message}</p>
      </div>
    );
  }
  return (
    <div className="notice notice-error" role="alert">
      <p>{typeof error === "string" ? error : error.message}</p>
      {children}
    </div>
  );
}
