// The last pages: completion (the code, and the way back to Prolific), screen-out, withdrawal.
import { useEffect, useRef, useState } from "react";
import type { ExitCode } from "../api/types";
import { Screen } from "../components/Screen";

export const REDIRECT_SECONDS = 10;

// The automatic return can be stopped (WCAG 2.2.1 Timing Adjustable): someone still copying the
// code, or reading slowly with a screen reader, stays until they follow the link.
function CodeAndReturn({ exit }: { exit: ExitCode }) {
  const [left, setLeft] = useState(REDIRECT_SECONDS);
  const [stopped, setStopped] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
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
      <p>Your code:</p>
      <p className="code" id="exit-code">
        {exit.code}
      </p>
      {url ? (
        <>
          <p>
            <a className="button primary" href={url} ref={link}>
              Return to Prolific
            </a>
          </p>
          {stopped ? (
            <p className="hint">You stay on this page. Use the button above when you are ready.</p>
          ) : (
            <div className="actions">
              <p className="hint">
                {left > 0 ? `You will be taken back to Prolific in ${left} seconds.` : "Taking you back to Prolific…"}
              </p>
              {left > 0 ? (
                <button type="button" className="secondary" onClick={stop}>
                  Stay on this page
                </button>
              ) : null}
            </div>
          )}
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
