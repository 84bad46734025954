// One question of the instrument with its options: radio buttons, or checkboxes when several
// answers are allowed.
import { useId, type ReactNode } from "react";
import type { Option } from "../api/types";

interface ChoiceFieldProps {
  legend: ReactNode;
  options: Option[];
  multi?: boolean;
  value: string[];
  onChange: (value: string[]) => void;
  invalid?: boolean;
  id?: string;
  hint?: ReactNode;
}

export function ChoiceField({ legend, options, multi = false, value, onChange, invalid, id, hint }: ChoiceFieldProps) {
  const name = useId();
  const toggle = (optionId: string, checked: boolean) => {
    if (!multi) onChange([optionId]);
    else onChange(checked ? [...value.filter((v) => v !== optionId), optionId] : value.filter((v) => v !== optionId));
  };
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
    </fieldset>
  );
}
