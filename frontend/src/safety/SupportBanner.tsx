// The support notice in the chat, where the participant is: right under the message that
// raised it (Chat places it there, from the turn the server names), in the flow of the page.
// It pushes what follows down and never lies over it, so the reply being rated and the
// controls of the step stay clear even on a 320 px phone, and all of it (Withdraw too) is
// reached by scrolling the page: nothing hides in a scroll box of its own. (It used to be
// pinned over half the window, which hid the reply and the step's buttons on a phone.)
//
// When it appears by itself it is scrolled into view and announced (a live region inside
// its named region; role="alert" on an <aside> is not allowed), never taking the focus from
// the message box. It offers the study's resources, a pause and the withdraw confirmation;
// the chat goes on. "Hide this message" folds it into a one-line bar in the same place that
// opens it again; that choice is kept for the participant's session in this tab (a reload
// keeps it folded) until a later message raises the notice again.
import { useId, useLayoutEffect, useRef, useState } from "react";
import { Withdraw } from "../components/Withdraw";
import { loadHiddenNotice, saveHiddenNotice, type HiddenNotice } from "../session/storage";
import { useOptionalStudy } from "../StudyContext";
import { useTranslation } from "react-i18next";

interface SupportBannerProps {
  resources: string;
  /** The turn whose message raised the notice (null: the server names none). */
  turn?: number | null;
}

function hiddenAlready(hidden: HiddenNotice | null, notice: HiddenNotice): boolean {
  return hidden !== null && hidden.conversation === notice.conversation && hidden.turn >= notice.turn;
}

export function SupportBanner({ resources, turn = null }: SupportBannerProps) {
  const session = useOptionalStudy()?.session;
  const { t } = useTranslation();
  const slug = session?.study.slug ?? "";
  const notice: HiddenNotice = { conversation: session?.conversation?.number ?? 0, turn: turn ?? 0 };
  const [hidden, setHidden] = useState(() => hiddenAlready(loadHiddenNotice(slug), notice));
  // Opened again by the participant it takes the focus instead of being announced again.
  const [reopened, setReopened] = useState(false);
  const [paused, setPaused] = useState(false);
  const titleId = useId();
  const box = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const bar = useRef<HTMLButtonElement>(null);
  const moved = useRef(false); // the participant folded or opened it: the focus follows

  useLayoutEffect(() => {
    if (moved.current) {
      moved.current = false;
      (hidden ? bar : heading).current?.focus();
    } else if (!hidden) {
      box.current?.scrollIntoView?.({ block: "nearest" }); // in view when it appears
    }
  }, [hidden]);

  const hide = () => {
    saveHiddenNotice(slug, notice);
    moved.current = true;
    setHidden(true);
  };
  const show = () => {
    saveHiddenNotice(slug, null);
    moved.current = true;
    setReopened(true);
    setHidden(false);
  };

  if (hidden) {
    return (
      <div className="support-place">
        <button type="button" className="support-bar" ref={bar} onClick={show}>
          {t("support.show")}
        </button>
      </div>
    );
  }
  return (
    <div className="support-place">
      <section className="support support-banner" aria-labelledby={titleId} ref={box}>
        <div {...(reopened ? {} : { role: "alert", "aria-labelledby": titleId })}>
          <h2 id={titleId} tabIndex={-1} ref={heading}>
            {t("support.title")}
          </h2>
          <p className="support-text">{resources}</p>
        </div>
        {paused ? (
          <p className="support-pause">
            {t("support.pause")}
          </p>
        ) : (
          <p>{t("support.choice")}</p>
        )}
        <div className="actions">
          <button type="button" className="secondary" onClick={() => setPaused(!paused)} aria-pressed={paused}>
            {paused ? t("support.ready") : t("support.takeBreak")}
          </button>
          <button type="button" className="secondary" onClick={hide}>
            {t("support.hide")}
          </button>
        </div>
        <Withdraw />
      </section>
    </div>
  );
}
