// The support notice in the chat, where the participant is: right under the message that
// raised it (Chat places it there, from the turn the server names), kept in view while they
// scroll (useKeptInView pins it to the window's edge once its place leaves the screen),
// announced once by screen readers (role="alert"), never taking the focus from the message
// box. It offers the study's resources, a pause and the withdraw link; the chat goes on.
// Hiding it leaves a small button, in the same place, that brings it back.
import { useId, useRef, useState } from "react";
import { Withdraw } from "../components/Withdraw";
import { useKeptInView } from "./useKeptInView";

export function SupportBanner({ resources }: { resources: string }) {
  const [hidden, setHidden] = useState(false);
  const [paused, setPaused] = useState(false);
  const titleId = useId();
  const place = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLElement>(null);
  const { pin, placeStyle, boxStyle } = useKeptInView(place, box, !hidden);
  return (
    <div className="support-place" ref={place} style={placeStyle}>
      {hidden ? (
        <p className="support-banner-collapsed">
          <button type="button" className="link-button" onClick={() => setHidden(false)}>
            Show the support resources
          </button>
        </p>
      ) : (
        <aside
          className={pin ? `support support-banner pinned pinned-${pin}` : "support support-banner"}
          role="alert"
          aria-labelledby={titleId}
          ref={box}
          style={boxStyle}
        >
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
      )}
    </div>
  );
}
