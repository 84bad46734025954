// One question of the instrument with its options: radio buttons, or checkboxes when several
// answers are allowed. An option that asks for the participant's own words ("Something else",
// `other: true`) opens a labelled text box inside the question once it is chosen; the screen
// keeps its text in the step's draft and sends it as `other_text`.
import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

export interface ChoiceOption {
  id: string;
  label: string;
  other?: boolean;
}

/** The text box of an option that asks for text: its value and whether it is still empty. */
export interface OtherText {
  value: string;
  onChange: (text: string) => void;
  invalid?: boolean;
  label?: string;
}

export const OTHER_TEXT_MAX = 200; // the server's limit (attunebench/other_text.py)

/** Does one of the chosen options ask for the participant's own words? */
export function asksText(options: ChoiceOption[], chosen: string[]): boolean {
  return options.some((option) => option.other === true && chosen.includes(option.id));
}

/** The id of a question's text box (what a submit focuses when it is empty). */
export const otherTextId = (questionId: string) => `${questionId}-other`;

interface ChoiceFieldProps {
  legend: ReactNode;
  options: ChoiceOption[];
  multi?: boolean;
  value: string[];
  onChange: (value: string[]) => void;
  invalid?: boolean;
  id?: string;
  hint?: ReactNode;
  /** The text box for an option with `other: true` (needs `id`). */
  other?: OtherText;
}

export function ChoiceField({ legend, options, multi = false, value, onChange, invalid, id, hint, other }: ChoiceFieldProps) {
  const name = useId();
  const { t } = useTranslation();
  const toggle = (optionId: string, checked: boolean) => {
    if (!multi) onChange([optionId]);
    else onChange(checked ? [...value.filter((v) => v !== optionId), optionId] : value.filter((v) => v !== optionId));
  };
  const textId = otherTextId(id ?? name);
  return (
    <fieldset
      className={invalid ? "field choices invalid" : "field choices"}
      id={id}
      tabIndex={-1}
      aria-describedby={hint ? `${name}-hint` : undefined}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p className="hint" id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
      {options.map((option) => (
        <label key={option.id} className="choice">
          <input
            type={multi ? "checkbox" : "radio"}
            name={name}
            value={option.id}
            checked={value.includes(option.id)}
            onChange={(event) => toggle(option.id, event.target.checked)}
          />
          <span>{option.label}</span>
        </label>
      ))}
      {other && asksText(options, value) ? (
        <div className={other.invalid ? "other-text invalid" : "other-text"}>
          <label htmlFor={textId}>{other.label ?? t("common.otherLabel")}</label>
          <input
            id={textId}
            autoComplete="off"
            maxLength={OTHER_TEXT_MAX}
            aria-invalid={other.invalid ?? false}
            aria-describedby={other.invalid ? `${textId}-error` : undefined}
            value={other.value}
            onChange={(event) => other.onChange(event.target.value)}
          />
          {other.invalid ? (
            <p className="field-error" id={`${textId}-error`}>
              {t("common.otherError")}
            </p>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}
