// Section 1: how the participant's feelings shifted with this reply. Either "no clear change",
// or one or more of the instrument's PANAS items, each with an intensity on its scale.
import { memo } from "react";
import type { Instrument } from "../api/types";
import { ScaleField } from "../components/ScaleField";
import { intensityId, MOOD_ID, type MoodTagDraft } from "./model";
import { tile } from "../components/tile";
import { useTranslation } from "react-i18next";

interface MoodQuestionProps {
  instrument: Instrument;
  noChange: boolean;
  tags: MoodTagDraft[];
  /** After a submit attempt: mark what is still unanswered. */
  showErrors: boolean;
  onNoChange: (value: boolean) => void;
  onToggle: (emotion: string, on: boolean) => void;
  onIntensity: (emotion: string, intensity: number) => void;
}

export const MoodQuestion = memo(function MoodQuestion({ instrument, noChange, tags, showErrors, onNoChange, onToggle, onIntensity }: MoodQuestionProps) {
  const { t } = useTranslation();
  const chosen = new Set(tags.map((tag) => tag.emotion));
  const moodMissing = showErrors && !noChange && tags.length === 0;
  const descriptions = new Map(instrument.panas_items.map((item) => [item.id, item.description]));
  const labels = new Map(instrument.panas_items.map((item) => [item.id, item.label]));
  return (
    <div className="annotation-section">
      <fieldset className={moodMissing ? "field invalid" : "field"} id={MOOD_ID} tabIndex={-1} aria-describedby="mood-hint">
        <legend>
          <span className="section-number" aria-hidden="true">1</span> {t("annotation.moodLegend")}
        </legend>
        <p className="hint" id="mood-hint">
          {t("annotation.moodHint")}
        </p>
        <label className="choice no-change">
          <input type="checkbox" checked={noChange} onChange={(event) => onNoChange(event.target.checked)} />
          <span>{t("annotation.noChange")}</span>
        </label>
        <div className="chips">
          {instrument.panas_items.map((item) => (
            <label key={item.id} className={tile("chip", chosen.has(item.id))} title={item.description}>
              <input
                type="checkbox"
                checked={chosen.has(item.id)}
                onChange={(event) => onToggle(item.id, event.target.checked)}
              />
              <span>{item.label}</span>
              <span className="visually-hidden">: {item.description}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {tags.map((tag) => (
        <ScaleField
          key={tag.emotion}
          id={intensityId(tag.emotion)}
          legend={t("annotation.howStrongly", { emotion: (labels.get(tag.emotion) ?? tag.emotion).toLowerCase() })}
          hint={descriptions.get(tag.emotion)}
          scale={instrument.intensity_scale}
          value={tag.intensity}
          invalid={showErrors && tag.intensity === null}
          onChange={(value) => onIntensity(tag.emotion, value)}
        />
      ))}
    </div>
  );
});
