// The questions about one reply: feelings, behaviour, the participant's own version, and the
// A/B comparisons. Every answer is a draft until "Save my answers"; the next message can only
// be sent once this is saved (the server enforces it too).
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { ApiError } from "../api/client";
import type { Answer, AnnotationStep, AttentionOption, Winner } from "../api/types";
import { ErrorNotice } from "../components/ErrorNotice";
import { MissingList } from "../components/MissingList";
import { useDraft } from "../drafts/useDraft";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";
import { AttentionCheckQuestion } from "./AttentionCheckQuestion";
import { BehaviourQuestion } from "./BehaviourQuestion";
import { ComparisonQuestions } from "./ComparisonQuestions";
import { EditReply } from "./EditReply";
import {
  EDIT_ID,
  emptyDraft,
  missingAnswers,
  setBehaviour,
  setIntensity,
  setNoChange,
  setWinner,
  toggleTag,
  toPayload,
  type AnnotationDraft,
} from "./model";
import { MoodQuestion } from "./MoodQuestion";
import { useAnnotationStep } from "./useAnnotationStep";
import { useTranslation } from "react-i18next";

interface AnnotationPanelProps {
  turn: number;
  reply: string;
  initialStep: AnnotationStep | null;
  onSaved: () => Promise<void>;
  /** The reply has just arrived: its questions are the next step, their heading takes the
   * focus (the message box below is closed until they are answered). */
  focusOnShow?: boolean;
}

export function AnnotationPanel({ turn, reply, initialStep, onSaved, focusOnShow = false }: AnnotationPanelProps) {
  const { step, failed, reload } = useAnnotationStep(turn, initialStep);
  const heading = useRef<HTMLHeadingElement>(null);
  const { t } = useTranslation();
  useEffect(() => {
    if (focusOnShow) heading.current?.focus();
  }, [focusOnShow, turn]);
  return (
    <section className="annotation" aria-labelledby="annotation-title">
      <h2 id="annotation-title" ref={heading} tabIndex={-1}>
        {t("annotation.title")}
      </h2>
      {step ? (
        <AnnotationForm key={step.turn} step={step} reply={reply} reload={reload} onSaved={onSaved} />
      ) : failed ? (
        <ErrorNotice error={t("annotation.loadFailed")}>
          <button type="button" className="secondary" onClick={() => void reload()}>
            {t("app.tryAgain")}
          </button>
        </ErrorNotice>
      ) : (
        <p role="status">{t("annotation.loading")}</p>
      )}
    </section>
  );
}

interface AnnotationFormProps {
  step: AnnotationStep;
  reply: string;
  reload: () => Promise<void>;
  onSaved: () => Promise<void>;
}

function AnnotationForm({ step, reply, reload, onSaved }: AnnotationFormProps) {
  const { client, drafts, instrument } = useStudy();
  const { busy, error, run, setError } = useAction();
  const { t } = useTranslation();
  const [draft, setDraft] = useDraft<AnnotationDraft>(step.draft_key, () => emptyDraft(Date.now()));
  const [attempt, setAttempt] = useState(0);
  const labelOf = (emotion: string) => instrument.panas_items.find((item) => item.id === emotion)?.label ?? emotion;
  const missing = attempt ? missingAnswers(draft, step, reply, labelOf) : [];
  const isMissing = (id: string) => missing.some((m) => m.targetId === id);
  // Stable handlers: a section whose answers did not change is not drawn again (memo).
  const onNoChange = useCallback((value: boolean) => setDraft((d) => setNoChange(d, value)), [setDraft]);
  const onToggle = useCallback((emotion: string, on: boolean) => setDraft((d) => toggleTag(d, emotion, on)), [setDraft]);
  const onIntensity = useCallback((emotion: string, value: number) => setDraft((d) => setIntensity(d, emotion, value)), [setDraft]);
  const onBehaviour = useCallback(
    (questionId: string, part: "observed" | "preferred", answer: Answer) => setDraft((d) => setBehaviour(d, questionId, part, answer)),
    [setDraft],
  );
  const onEdited = useCallback((value: string | null) => setDraft((d) => ({ ...d, edited: value })), [setDraft]);
  const onWinner = useCallback((questionId: string, winner: Winner) => setDraft((d) => setWinner(d, questionId, winner)), [setDraft]);
  const onAttention = useCallback((answer: AttentionOption) => setDraft((d) => ({ ...d, attention: answer })), [setDraft]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setAttempt((n) => n + 1);
    if (missingAnswers(draft, step, reply).length) return;
    void run(async () => {
      let saved: AnnotationStep;
      try {
        saved = await client.submitAnnotation(step.turn, toPayload(draft, step, reply, Date.now()));
      } catch (caught) {
        // The comparison may have become ready (or been skipped) since we last looked.
        if (caught instanceof ApiError && caught.field?.startsWith("pairwise")) await reload();
        throw caught;
      }
      if (!saved.submitted) {
        // Saved while the second reply is written: only the comparison is left. The draft
        // stays (the choice is still to make), and the step is polled until it is ready.
        await reload();
        return;
      }
      drafts.clear(step.draft_key);
      await onSaved();
    });
  };

  return (
    <>
      <p className="hint">{t("annotation.hint")}</p>
      <form onSubmit={submit} noValidate>
        <MoodQuestion
          instrument={instrument}
          noChange={draft.noChange}
          tags={draft.tags}
          showErrors={attempt > 0}
          onNoChange={onNoChange}
          onToggle={onToggle}
          onIntensity={onIntensity}
        />
        {step.behaviour_questions.length ? (
          <div className="annotation-section">
            <h3>
              <span className="section-number" aria-hidden="true">2</span> {t("annotation.behaviourTitle")}
            </h3>
            {step.behaviour_questions.map((question) => (
              <BehaviourQuestion
                key={question.id}
                question={question}
                value={draft.behaviour[question.id]}
                invalid={attempt > 0}
                onChange={onBehaviour}
              />
            ))}
          </div>
        ) : null}
        {step.attention_check ? (
          <AttentionCheckQuestion check={step.attention_check} value={draft.attention} invalid={attempt > 0} onChange={onAttention} />
        ) : null}
        <EditReply
          original={reply}
          value={draft.edited}
          invalid={isMissing(EDIT_ID)}
          onChange={onEdited}
        />
        <ComparisonQuestions
          comparison={step.comparison}
          answersSaved={step.answers_saved}
          winners={draft.pairwise}
          invalid={attempt > 0}
          onChange={onWinner}
        />
        <MissingList items={missing} attempt={attempt} />
        <ErrorNotice error={error} />
        <button type="submit" className="primary" aria-disabled={busy} onClick={() => setError(null)}>
          {busy ? t("annotation.saving") : t("annotation.save")}
        </button>
      </form>
    </>
  );
}
