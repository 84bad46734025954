// A refusal or failure, announced to screen readers as soon as it appears.
import type { ReactNode } from "react";
import type { ApiError } from "../api/client";

export function ErrorNotice({ error, children }: { error: ApiError | string | null; children?: ReactNode }) {
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      <p>{typeof error === "string" ? error : error.message}</p>
      {children}
    </div>
  );
}
