// Withdrawal, reachable from every page of a session: one button, then a confirmation that
// says what withdrawing means. No reason is asked for.
import { useEffect, useId, useRef, useState } from "react";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";
import { ErrorNotice } from "./ErrorNotice";
import { useTranslation } from "react-i18next";

export function Withdraw() {
  const { client, drafts, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const [open, setOpen] = useState(false);
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const titleId = useId(); // the chat's support notice holds a second one
  useEffect(() => {
    if (open) {
      heading.current?.focus();
      heading.current?.scrollIntoView?.({ block: "center" }); // the whole confirmation in view
    }
    else if (wasOpen.current) opener.current?.focus(); // back where the participant was
    wasOpen.current = open;
  }, [open]);

  const withdraw = () =>
    run(async () => {
      await drafts.flush().catch(() => undefined);
      setSession(await client.withdraw());
    });
  if (!open) {
    return (
      <button type="button" className="link-button" ref={opener} onClick={() => setOpen(true)}>
        {t("withdraw.open")}
      </button>
    );
  }
  return (
    <div className="withdraw-confirm" role="group" aria-labelledby={titleId}>
      <h2 id={titleId} tabIndex={-1} ref={heading}>
        {t("withdraw.title")}
      </h2>
      <p>{t("withdraw.body")}</p>
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" className="danger" aria-disabled={busy} onClick={() => void withdraw()}>
          {t("withdraw.yes")}
        </button>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>
          {t("withdraw.no")}
        </button>
      </div>
    </div>
  );
}
