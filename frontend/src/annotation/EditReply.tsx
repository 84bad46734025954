// Section 3: the reply as the participant would have liked it. It starts as the model's reply,
// so "no change" is simply leaving it as it is. The text lives here while the participant
// types and goes to the form's draft after a short pause, on leaving the box, and when the
// page is hidden: a keystroke redraws this box only, not the whole panel (slow phones).
import { memo, useCallback, useEffect, useRef, useState, type FocusEvent } from "react";
import { EDIT_ID } from "./model";
import { useTranslation } from "react-i18next";

export const COMMIT_AFTER_MS = 400;

interface EditReplyProps {
  original: string;
  value: string | null;
  invalid: boolean;
  onChange: (value: string | null) => void;
}

export const EditReply = memo(function EditReply({ original, value, invalid, onChange }: EditReplyProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(value ?? original);
  const [touched, setTouched] = useState(value !== null);
  const unsaved = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  const commit = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    if (unsaved.current === null) return;
    const next = unsaved.current;
    unsaved.current = null;
    onChangeRef.current(next);
  }, []);

  // Leaving the page or the panel must not lose the last words typed.
  useEffect(() => {
    window.addEventListener("pagehide", commit);
    return () => {
      window.removeEventListener("pagehide", commit);
      commit();
    };
  }, [commit]);

  const type = (next: string) => {
    setText(next);
    setTouched(true);
    unsaved.current = next;
    clearTimeout(timer.current);
    timer.current = setTimeout(commit, COMMIT_AFTER_MS);
  };
  // Reached with Tab from above, the browser scrolls only the caret's line into view: the
  // participant is about to rewrite the whole reply, so the whole box (as far as it fits) shows.
  // (jsdom has no scrollIntoView)
  const showWhole = (event: FocusEvent<HTMLTextAreaElement>) => event.currentTarget.scrollIntoView?.({ block: "nearest" });
  const undo = () => {
    clearTimeout(timer.current);
    unsaved.current = null;
    setText(original);
    setTouched(false);
    onChangeRef.current(null);
  };

  return (
    <div className={invalid ? "field annotation-section invalid" : "field annotation-section"}>
      <label htmlFor={EDIT_ID} className="legend-like">
        <span className="section-number" aria-hidden="true">3</span> {t("annotation.editLabel")}
      </label>
      <p className="hint" id={`${EDIT_ID}-hint`}>
        {t("annotation.editHint")}
      </p>
      <textarea
        id={EDIT_ID}
        dir="auto"
        rows={Math.min(12, Math.max(5, Math.ceil(text.length / 45)))}
        value={text}
        aria-describedby={`${EDIT_ID}-hint`}
        aria-invalid={invalid}
        onChange={(event) => type(event.target.value)}
        onBlur={commit}
        onFocus={showWhole}
      />
      {touched && text !== original ? (
        <button type="button" className="link-button" onClick={undo}>
          {t("annotation.undo")}
        </button>
      ) : null}
    </div>
  );
});
