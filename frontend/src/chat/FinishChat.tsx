// Ending the chat (possible from the study's minimum of answered replies). Asks once more,
// since there is no way back into the chat afterwards.
import { useState } from "react";
import { ErrorNotice } from "../components/ErrorNotice";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";
import { useTranslation } from "react-i18next";

export function FinishChat({ atLimit }: { atLimit: boolean }) {
  const { client, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(atLimit);
  const finish = () => run(async () => setSession(await client.finish()));
  return (
    <div className="finish">
      {atLimit ? <p>{t("chat.lastMessage")}</p> : null}
      {confirming ? (
        <>
          {atLimit ? null : <p>{t("chat.finishConfirm")}</p>}
          <div className="actions">
            <button type="button" className="primary" aria-disabled={busy} onClick={() => void finish()}>
              {atLimit ? t("chat.toLastQuestions") : t("chat.yesFinish")}
            </button>
            {atLimit ? null : (
              <button type="button" className="secondary" onClick={() => setConfirming(false)}>
                {t("chat.keepChatting")}
              </button>
            )}
          </div>
        </>
      ) : (
        <button type="button" className="secondary" onClick={() => setConfirming(true)}>
          {t("chat.finish")}
        </button>
      )}
      <ErrorNotice error={error} />
    </div>
  );
}
