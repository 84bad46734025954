// Section 3: the reply as the participant would have liked it. It starts as the model's reply,
// so "no change" is simply leaving it as it is.
import { EDIT_ID } from "./model";

interface EditReplyProps {
  original: string;
  value: string | null;
  invalid: boolean;
  onChange: (value: string | null) => void;
}

export function EditReply({ original, value, invalid, onChange }: EditReplyProps) {
  const text = value ?? original;
  return (
    <div className={invalid ? "field annotation-section invalid" : "field annotation-section"}>
      <label htmlFor={EDIT_ID} className="legend-like">
        <span className="section-number" aria-hidden="true">3</span> Edit the reply into what you would have liked to
        hear
      </label>
      <p className="hint" id={`${EDIT_ID}-hint`}>
        Change as much or as little as you like. Leave it as it is if it was right for you.
      </p>
      <textarea
        id={EDIT_ID}
        rows={Math.min(12, Math.max(5, Math.ceil(text.length / 45)))}
        value={text}
        aria-describedby={`${EDIT_ID}-hint`}
        aria-invalid={invalid}
        onChange={(event) => onChange(event.target.value)}
      />
      {value !== null && value !== original ? (
        <button type="button" className="link-button" onClick={() => onChange(null)}>
          Undo my changes
        </button>
      ) : null}
    </div>
  );
}
