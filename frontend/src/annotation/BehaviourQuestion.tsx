// Section 2, one question: did the reply do it, and should it have (yes / no / not applicable).
// The question's wording is the instrument's participant wording, from the API.
import { memo, useId } from "react";
import type { Answer, Question } from "../api/types";
import { behaviourId, type BehaviourDraft } from "./model";
import { tile } from "../components/tile";
import { useTranslation } from "react-i18next";

const ANSWERS: { value: Answer; label: "annotation.yes" | "annotation.no" | "annotation.na" }[] = [
  { value: "yes", label: "annotation.yes" },
  { value: "no", label: "annotation.no" },
  { value: "na", label: "annotation.na" },
];

interface BehaviourQuestionProps {
  question: Question;
  value: BehaviourDraft | undefined;
  invalid: boolean;
  onChange: (questionId: string, part: "observed" | "preferred", answer: Answer) => void;
}

function AnswerRow({ label, name, value, onChange }: { label: string; name: string; value: Answer | undefined; onChange: (a: Answer) => void }) {
  const labelId = `${name}-label`;
  const { t } = useTranslation();
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
            <span>{t(answer.label)}</span>
          </label>
        ))}
      </span>
    </div>
  );
}

// memo: typing elsewhere in the panel must not redraw every question (slow phones).
export const BehaviourQuestion = memo(function BehaviourQuestion({ question, value, invalid, onChange }: BehaviourQuestionProps) {
  const name = useId();
  const { t } = useTranslation();
  const missing = invalid && (!value?.observed || !value.preferred);
  return (
    <fieldset className={missing ? "field behaviour invalid" : "field behaviour"} id={behaviourId(question.id)} tabIndex={-1}>
      <legend>{question.text}</legend>
      <AnswerRow label={t("annotation.didIt")} name={`${name}-observed`} value={value?.observed} onChange={(a) => onChange(question.id, "observed", a)} />
      <AnswerRow
        label={t("annotation.shouldIt")}
        name={`${name}-preferred`}
        value={value?.preferred}
        onChange={(a) => onChange(question.id, "preferred", a)}
      />
    </fieldset>
  );
});
