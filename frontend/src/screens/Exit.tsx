// The last pages: completion (the code, and the way back to Prolific), screen-out, withdrawal.
import { useEffect, useRef, useState } from "react";
import type { ExitCode } from "../api/types";
import { Screen } from "../components/Screen";
import { useTranslation } from "react-i18next";

export const REDIRECT_SECONDS = 10;

// The automatic return can be stopped (WCAG 2.2.1 Timing Adjustable): someone still copying the
// code, or reading slowly with a screen reader, stays until they follow the link.
function CodeAndReturn({ exit }: { exit: ExitCode }) {
  const [left, setLeft] = useState(REDIRECT_SECONDS);
  const [stopped, setStopped] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
  const { t } = useTranslation();
  const url = exit.redirect_url;
  useEffect(() => {
    if (!url || stopped) return;
    if (left <= 0) {
      window.location.assign(url);
      return;
    }
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, url, stopped]);
  const stop = () => {
    setStopped(true);
    link.current?.focus(); // the button goes away: the focus goes to what is next
  };
  return (
    <>
      <p>{t("exit.yourCode")}</p>
      <p className="code" id="exit-code">
        {exit.code}
      </p>
      {url ? (
        <>
          <p>
            <a className="button primary" href={url} ref={link}>
              {t("exit.returnToProlific")}
            </a>
          </p>
          {stopped ? (
            <p className="hint">{t("exit.stayed")}</p>
          ) : (
            <div className="actions">
              <p className="hint">
                {left > 0 ? t("exit.countdown", { count: left }) : t("exit.returning")}
              </p>
              {left > 0 ? (
                <button type="button" className="secondary" onClick={stop}>
                  {t("exit.stay")}
                </button>
              ) : null}
            </div>
          )}
        </>
      ) : (
        <p className="hint">{t("exit.preview")}</p>
      )}
    </>
  );
}

export function Complete({ exit }: { exit: ExitCode | null }) {
  const { t } = useTranslation();
  return (
    <Screen title={t("exit.completeTitle")}>
      <p>{t("exit.completeBody")}</p>
      {exit ? <CodeAndReturn exit={exit} /> : null}
    </Screen>
  );
}

export function ScreenedOut({ exit }: { exit: ExitCode | null }) {
  const { t } = useTranslation();
  return (
    <Screen title={t("exit.screenedTitle")}>
      <p>{t("exit.screenedBody")}</p>
      {exit ? <CodeAndReturn exit={exit} /> : null}
    </Screen>
  );
}

export function Withdrawn() {
  const { t } = useTranslation();
  return (
    <Screen title={t("exit.withdrawnTitle")}>
      <p>{t("exit.withdrawnBody")}</p>
      <p>{t("exit.withdrawnReturn")}</p>
    </Screen>
  );
}
