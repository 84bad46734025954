// The study's consent text (from the server, with its version) and the two answers.
import { ErrorNotice } from "../components/ErrorNotice";
import { Screen } from "../components/Screen";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";

export function Consent() {
  const { client, session, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const study = session.study;
  const answer = (agree: boolean) => run(async () => setSession(await client.consent(study.consent_version, agree)));
  return (
    <Screen title="Information and consent" lead={<p>{study.title}</p>}>
      <div className="consent-text">
        {study.consent_text || "The researchers have not added an information text to this study."}
      </div>
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" className="primary" aria-disabled={busy} onClick={() => void answer(true)}>
          I agree to take part
        </button>
        <button type="button" className="secondary" aria-disabled={busy} onClick={() => void answer(false)}>
          I do not agree
        </button>
      </div>
    </Screen>
  );
}
