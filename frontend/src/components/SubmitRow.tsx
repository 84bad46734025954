// The end of a step's form: the server's refusal (if any) right above the one submit button.
import type { ApiError } from "../api/client";
import { ErrorNotice } from "./ErrorNotice";

interface SubmitRowProps {
  label: string;
  busy: boolean;
  error: ApiError | null;
  busyLabel?: string;
}

export function SubmitRow({ label, busy, error, busyLabel }: SubmitRowProps) {
  return (
    <>
      <ErrorNotice error={error} />
      <button type="submit" className="primary" aria-disabled={busy}>
        {busy && busyLabel ? busyLabel : label}
      </button>
    </>
  );
}
