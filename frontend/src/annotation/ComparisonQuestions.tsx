// Section 4: the A/B comparisons. The second reply is written in the background; until it is
// ready this section says what the app waits for, and the rest of the panel stays usable and
// can be saved (the page never waits; the choice itself waits for both replies).
import { memo, useId } from "react";
import type { Comparison, Winner } from "../api/types";
import { pairwiseId } from "./model";
import { tile } from "../components/tile";
import { useTranslation } from "react-i18next";

const CHOICES: { value: Winner; key: string }[] = [
  { value: "A", key: "A" },
  { value: "B", key: "B" },
  { value: null, key: "none" },
];

interface ComparisonQuestionsProps {
  comparison: Comparison;
  /** The other answers are saved on the server; only the comparison is left. */
  answersSaved: boolean;
  winners: Record<string, Winner>;
  invalid: boolean;
  onChange: (questionId: string, winner: Winner) => void;
}

export const ComparisonQuestions = memo(function ComparisonQuestions({
  comparison,
  answersSaved,
  winners,
  invalid,
  onChange,
}: ComparisonQuestionsProps) {
  const name = useId();
  const { t } = useTranslation();
  const choiceLabel = (value: Winner) => (value ? t("annotation.reply", { letter: value }) : t("annotation.noPreference"));
  if (comparison.status === "pending") {
    return (
      <div className="annotation-section">
        <h3>
          <span className="section-number" aria-hidden="true">4</span> {t("annotation.compareTitle")}
        </h3>
        <p className="notice notice-wait" role="status">
          <span className="spinner" aria-hidden="true" />{" "}
          {answersSaved
            ? t("annotation.preparingSaved")
            : t("annotation.preparing")}
        </p>
      </div>
    );
  }
  if (comparison.status !== "ready" || !comparison.responses || !comparison.questions.length) return null;
  return (
    <div className="annotation-section">
      <h3>
        <span className="section-number" aria-hidden="true">4</span> {t("annotation.compareTitle")}
      </h3>
      <p className="hint">{t("annotation.compareHint")}</p>
      <div className="compare">
        {(["A", "B"] as const).map((letter) => (
          <figure key={letter} className="compare-reply">
            <figcaption>{t("annotation.reply", { letter })}</figcaption>
            <blockquote dir="auto">{comparison.responses?.[letter]}</blockquote>
          </figure>
        ))}
      </div>
      {comparison.questions.map((question) => {
        const chosen = winners[question.id];
        const answered = question.id in winners;
        return (
          <fieldset
            key={question.id}
            id={pairwiseId(question.id)}
            tabIndex={-1}
            className={invalid && !answered ? "field pairwise invalid" : "field pairwise"}
          >
            <legend>{question.text}</legend>
            <span className="segmented">
              {CHOICES.map((choice) => (
                <label key={choice.key} className={tile("segment", answered && chosen === choice.value)}>
                  <input
                    type="radio"
                    name={`${name}-${question.id}`}
                    checked={answered && chosen === choice.value}
                    onChange={() => onChange(question.id, choice.value)}
                  />
                  <span>{choiceLabel(choice.value)}</span>
                </label>
              ))}
            </span>
          </fieldset>
        );
      })}
    </div>
  );
});
