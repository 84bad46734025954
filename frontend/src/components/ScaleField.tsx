// A rating on the instrument's scale (1..7 with the instrument's labels) as a radio group.
import { useId, type ReactNode } from "react";
import type { Scale } from "../api/types";
import { tile } from "./tile";
import { useTranslation } from "react-i18next";

interface ScaleFieldProps {
  legend: ReactNode;
  hint?: ReactNode;
  scale: Scale;
  value: number | null | undefined;
  onChange: (value: number) => void;
  invalid?: boolean;
  id?: string;
}

export function scalePoints(scale: Scale): number[] {
  const points: number[] = [];
  for (let point = scale.min; point <= scale.max; point++) points.push(point);
  return points;
}

export function ScaleField({ legend, hint, scale, value, onChange, invalid, id }: ScaleFieldProps) {
  const name = useId();
  const { t } = useTranslation();
  const hintId = `${name}-hint`;
  return (
    <fieldset
      className={invalid ? "field scale invalid" : "field scale"}
      id={id}
      aria-describedby={hint ? hintId : undefined}
      tabIndex={-1}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <div className="scale-options">
        {scalePoints(scale).map((point) => (
          <label key={point} className={tile("scale-option", value === point)}>
            <input
              type="radio"
              name={name}
              value={point}
              checked={value === point}
              onChange={() => onChange(point)}
            />
            <span className="scale-number">{point}</span>
            <span className="scale-label">{scale.labels[String(point)] ?? ""}</span>
          </label>
        ))}
      </div>
      {/* Phones have no room for seven labels: the ends are spelled out under the row instead
          (each option still carries its own label for screen readers). */}
      <div className="scale-ends" aria-hidden="true">
        <span>{t("common.scaleEnd", { point: scale.min, label: scale.labels[String(scale.min)] ?? "" })}</span>
        <span>{t("common.scaleEnd", { point: scale.max, label: scale.labels[String(scale.max)] ?? "" })}</span>
      </div>
    </fieldset>
  );
}
