// The first page of a study link. The Prolific ids come from the URL; someone who arrives
// without them (a pasted link) can type their Prolific ID.
import { useState, type FormEvent } from "react";
import type { ApiError, ProlificParams } from "../api/client";
import { ErrorNotice } from "../components/ErrorNotice";
import { Screen } from "../components/Screen";
import { isValidProlificId } from "../session/prolific";
import { useTranslation } from "react-i18next";

interface LandingProps {
  params: ProlificParams;
  busy: boolean;
  error: ApiError | string | null;
  onStart: (params: ProlificParams) => void;
}

export function Landing({ params, busy, error, onStart }: LandingProps) {
  const { t } = useTranslation();
  const fromLink = isValidProlificId(params.prolificPid);
  const [pid, setPid] = useState(params.prolificPid);
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return; // aria-disabled keeps the button focusable, so it still submits
    const value = pid.trim();
    if (!isValidProlificId(value)) {
      setInvalid(true);
      return;
    }
    onStart({ ...params, prolificPid: value });
  };
  return (
    <Screen title={t("landing.title")}>
      <p>{t("landing.intro")}</p>
      <p>{t("landing.saved")}</p>
      <form onSubmit={submit} noValidate>
        {fromLink ? (
          <p className="meta">
            {t("landing.prolificId")} <strong>{params.prolificPid}</strong>
          </p>
        ) : (
          <div className={invalid ? "field invalid" : "field"}>
            <label htmlFor="prolific-pid">{t("landing.yourProlificId")}</label>
            <input
              id="prolific-pid"
              name="prolific-pid"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              value={pid}
              aria-invalid={invalid}
              aria-describedby={invalid ? "prolific-pid-error" : undefined}
              onChange={(event) => {
                setPid(event.target.value);
                setInvalid(false);
              }}
            />
            {invalid ? (
              <p className="field-error" id="prolific-pid-error">
                {t("landing.invalidId")}
              </p>
            ) : null}
          </div>
        )}
        <ErrorNotice error={error} />
        <button type="submit" className="primary" aria-disabled={busy}>
          {busy ? t("landing.starting") : t("landing.start")}
        </button>
      </form>
    </Screen>
  );
}
