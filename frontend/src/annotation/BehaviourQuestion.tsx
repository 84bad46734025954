// Section 2, one question: did the reply do it, and should it have (yes / no / not applicable).
// The question's wording is the instrument's participant wording, from the API.
import { memo, useId } from "react";
import type { Answer, Question } from "../api/types";
import { behaviourId, type BehaviourDraft } from "./model";
import { tile } from "../components/tile";

const ANSWERS: { value: Answer; label: string }[] = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
  { value: "na", label: "Not applicable" },
];

interface BehaviourQuestionProps {
  question: Question;
  value: BehaviourDraft | undefined;
  invalid: boolean;
  onChange: (questionId: string, part: "observed" | "preferred", answer: Answer) => void;
}

function AnswerRow({ label, name, value, onChange }: { label: string; name: string; value: Answer | undefined; onChange: (a: Answer) => void }) {
  const labelId = `${name}-label`;
  return (
    <div className="answer-row" role="radiogroup" aria-labelledby={labelId}>
      <span className="answer-row-label" id={labelId}>
        {label}
      </span>
      <span className="segmented">
        {ANSWERS.map((answer) => (
          <label key={answer.value} className={tile("segment", value === answer.value)}>
            <input
              type="radio"
              name={name}
              value={answer.value}
              checked={value === answer.value}
              onChange={() => onChange(answer.value)}
            />
            <span>{answer.label}</span>
          </label>
        ))}
      </span>
    </div>
  );
}

// memo: typing elsewhere in the panel must not redraw every question (slow phones).
export const BehaviourQuestion = memo(function BehaviourQuestion({ question, value, invalid, onChange }: BehaviourQuestionProps) {
  const name = useId();
  const missing = invalid && (!value?.observed || !value.preferred);
  return (
    <fieldset className={missing ? "field behaviour invalid" : "field behaviour"} id={behaviourId(question.id)} tabIndex={-1}>
      <legend>{question.text}</legend>
      <AnswerRow label="Did it?" name={`${name}-observed`} value={value?.observed} onChange={(a) => onChange(question.id, "observed", a)} />
      <AnswerRow
        label="Should it have?"
        name={`${name}-preferred`}
        value={value?.preferred}
        onChange={(a) => onChange(question.id, "preferred", a)}
      />
    </fieldset>
  );
});
