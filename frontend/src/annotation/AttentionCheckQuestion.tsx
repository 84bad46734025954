// An attention check inside the annotation step: an instructed-response item ("For this
// question, choose 'Disagree'"). The instruction and the options are the app's own words in
// the participant's language (the server sends option ids only); any answer is saved, and a
// wrong one becomes a QA flag, never a message to the participant.
import { memo, useId } from "react";
import type { AttentionCheck, AttentionOption } from "../api/types";
import { tile } from "../components/tile";
import { ATTENTION_ID } from "./model";
import { useTranslation } from "react-i18next";

const LABELS: Record<AttentionOption, `attention.${AttentionOption}`> = {
  strongly_agree: "attention.strongly_agree",
  agree: "attention.agree",
  neutral: "attention.neutral",
  disagree: "attention.disagree",
  strongly_disagree: "attention.strongly_disagree",
};

interface AttentionCheckQuestionProps {
  check: AttentionCheck;
  value: AttentionOption | null | undefined;
  invalid: boolean;
  onChange: (answer: AttentionOption) => void;
}

export const AttentionCheckQuestion = memo(function AttentionCheckQuestion({ check, value, invalid, onChange }: AttentionCheckQuestionProps) {
  const name = useId();
  const { t } = useTranslation();
  const missing = invalid && !value;
  return (
    <fieldset className={missing ? "field choices attention invalid" : "field choices attention"} id={ATTENTION_ID} tabIndex={-1}>
      <legend>{t("attention.instruction", { answer: t(LABELS[check.instructed]) })}</legend>
      {check.options.map((option) => (
        <label key={option} className={tile("choice", value === option)}>
          <input type="radio" name={name} value={option} checked={value === option} onChange={() => onChange(option)} />
          <span>{t(LABELS[option])}</span>
        </label>
      ))}
    </fieldset>
  );
});
