// One step's page: its heading takes the focus when the step appears, so keyboard and screen
// reader users start at the top of the new step instead of wherever the last button was.
import { useEffect, useRef, type ReactNode } from "react";
import { isFinal } from "../session/steps";
import { useOptionalStudy } from "../StudyContext";
import { DraftsNotSavedNotice } from "./DraftsNotSavedNotice";
import { SupportNotice } from "./SupportNotice";
import { useTranslation } from "react-i18next";

interface ScreenProps {
  title: string;
  children: ReactNode;
  /** Shown under the heading in smaller type. */
  lead?: ReactNode;
  /** The screen shows the support notice itself, where the participant is (the chat). */
  ownSupportNotice?: boolean;
}

export function Screen({ title, lead, children, ownSupportNotice = false }: ScreenProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { t } = useTranslation();
  // Once the backend has flagged a risk, the support resources head every page that follows.
  const session = useOptionalStudy()?.session;
  const support = session?.support ?? null;
  useEffect(() => {
    heading.current?.focus();
    document.title = t("app.pageTitle", { title });
  }, [title, t]);
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {lead ? <div className="lead">{lead}</div> : null}
      {support && !ownSupportNotice ? (
        <SupportNotice resources={support.resources} canWithdraw={session ? !isFinal(session) : true} />
      ) : null}
      <DraftsNotSavedNotice />
      {children}
    </section>
  );
}
