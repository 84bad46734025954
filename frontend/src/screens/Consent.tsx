// The study's consent text (from the server, with its version) and the two answers.
import { ErrorNotice } from "../components/ErrorNotice";
import { Screen } from "../components/Screen";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";
import { useTranslation } from "react-i18next";

export function Consent() {
  const { client, session, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const { t } = useTranslation();
  const study = session.study;
  const answer = (agree: boolean) => run(async () => setSession(await client.consent(study.consent_version, agree)));
  return (
    <Screen title={t("consent.title")} lead={<p>{study.title}</p>}>
      <div className="consent-text">
        {study.consent_text || t("consent.noText")}
      </div>
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" className="primary" aria-disabled={busy} onClick={() => void answer(true)}>
          {t("consent.agree")}
        </button>
        <button type="button" className="secondary" aria-disabled={busy} onClick={() => void answer(false)}>
          {t("consent.disagree")}
        </button>
      </div>
    </Screen>
  );
}
