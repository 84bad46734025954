// Ending the chat (possible from the study's minimum of answered replies). Asks once more,
// since there is no way back into the chat afterwards.
import { useState } from "react";
import { ErrorNotice } from "../components/ErrorNotice";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";

export function FinishChat({ atLimit }: { atLimit: boolean }) {
  const { client, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const [confirming, setConfirming] = useState(atLimit);
  const finish = () => run(async () => setSession(await client.finish()));
  return (
    <div className="finish">
      {atLimit ? <p>This chat has reached its last message. Thank you!</p> : null}
      {confirming ? (
        <>
          {atLimit ? null : <p>Finish the chat? You cannot come back to it afterwards.</p>}
          <div className="actions">
            <button type="button" className="primary" aria-disabled={busy} onClick={() => void finish()}>
              {atLimit ? "Continue to the last questions" : "Yes, finish the chat"}
            </button>
            {atLimit ? null : (
              <button type="button" className="secondary" onClick={() => setConfirming(false)}>
                Keep chatting
              </button>
            )}
          </div>
        </>
      ) : (
        <button type="button" className="secondary" onClick={() => setConfirming(true)}>
          Finish the chat
        </button>
      )}
      <ErrorNotice error={error} />
    </div>
  );
}
