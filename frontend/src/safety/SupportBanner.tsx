// The support notice in the chat, where the participant is: right under the conversation that
// raised it (the message they just sent and its reply), kept in view while they scroll (sticky
// to the top and bottom of the chat), announced once by screen readers (role="alert"), never
// taking the focus from the message box. It offers the study's resources, a pause and the
// withdraw link; the chat goes on. Hiding it leaves a small button that brings it back.
import { useId, useState } from "react";
import { Withdraw } from "../components/Withdraw";

export function SupportBanner({ resources }: { resources: string }) {
  const [hidden, setHidden] = useState(false);
  const [paused, setPaused] = useState(false);
  const titleId = useId();
  if (hidden) {
    return (
      <p className="support-banner-collapsed">
        <button type="button" className="link-button" onClick={() => setHidden(false)}>
          Show the support resources
        </button>
      </p>
    );
  }
  return (
    <aside className="support support-banner" role="alert" aria-labelledby={titleId}>
      <h2 id={titleId}>Support is available</h2>
      <p className="support-text">{resources}</p>
      {paused ? (
        <p className="support-pause">
          Take all the time you need. Everything you wrote is saved: come back to this page, or open your study
          link again, when you are ready.
        </p>
      ) : (
        <p>You can keep chatting, take a break, or stop: it is your choice.</p>
      )}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => setPaused(!paused)} aria-pressed={paused}>
          {paused ? "I am ready to go on" : "Take a break"}
        </button>
        <button type="button" className="secondary" onClick={() => setHidden(true)}>
          Hide this message
        </button>
      </div>
      <Withdraw />
    </aside>
  );
}
