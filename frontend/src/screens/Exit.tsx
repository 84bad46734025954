// The last pages: completion (the code, and the way back to Prolific), screen-out, withdrawal.
import { useEffect, useState } from "react";
import type { ExitCode } from "../api/types";
import { Screen } from "../components/Screen";

export const REDIRECT_SECONDS = 10;

function CodeAndReturn({ exit }: { exit: ExitCode }) {
  const [left, setLeft] = useState(REDIRECT_SECONDS);
  const url = exit.redirect_url;
  useEffect(() => {
    if (!url) return;
    if (left <= 0) {
      window.location.assign(url);
      return;
    }
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, url]);
  return (
    <>
      <p>Your code:</p>
      <p className="code" id="exit-code">
        {exit.code}
      </p>
      {url ? (
        <>
          <p>
            <a className="button primary" href={url}>
              Return to Prolific
            </a>
          </p>
          <p className="hint">
            {left > 0 ? `You will be taken back to Prolific in ${left} seconds.` : "Taking you back to Prolific…"}
          </p>
        </>
      ) : (
        <p className="hint">This is a preview: there is no Prolific submission to return to.</p>
      )}
    </>
  );
}

export function Complete({ exit }: { exit: ExitCode | null }) {
  return (
    <Screen title="Thank you!">
      <p>You have finished the study. Your answers are saved.</p>
      {exit ? <CodeAndReturn exit={exit} /> : null}
    </Screen>
  );
}

export function ScreenedOut({ exit }: { exit: ExitCode | null }) {
  return (
    <Screen title="Thank you for your interest">
      <p>This study has ended for you. You do not need to do anything else here.</p>
      {exit ? <CodeAndReturn exit={exit} /> : null}
    </Screen>
  );
}

export function Withdrawn() {
  return (
    <Screen title="You have withdrawn">
      <p>You have left the study. Your answers will not be used in the study's data.</p>
      <p>Please return the submission on Prolific. Thank you for your time.</p>
    </Screen>
  );
}
