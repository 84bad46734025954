// The annotation of one reply as plain data: what the participant has answered so far (the
// draft, saved as they go), what is still missing, and the payload the API takes. No React
// here, so the rules are tested directly.
import type { Missing } from "../components/MissingList";
import type { Answer, AnnotationPayload, AnnotationStep, AttentionOption, Winner } from "../api/types";
import { i18n } from "../i18n";

export interface MoodTagDraft {
  emotion: string;
  intensity: number | null;
}

export interface BehaviourDraft {
  observed?: Answer;
  preferred?: Answer;
}

export interface AnnotationDraft {
  /** "No clear change" in how they feel: an empty mood_tags list. */
  noChange: boolean;
  /** In the order the participant picked them. */
  tags: MoodTagDraft[];
  behaviour: Record<string, BehaviourDraft>;
  /** The participant's version of the reply; null until they touch it (then the reply is used). */
  edited: string | null;
  /** A missing key is unanswered; null is an explicit "no preference". */
  pairwise: Record<string, Winner>;
  /** The answer to the step's attention check, if it has one (absent in older drafts). */
  attention?: AttentionOption | null;
  /** When the panel first opened (ms since the epoch), for the timings. */
  openedAt: number;
}

export function emptyDraft(now: number): AnnotationDraft {
  return { noChange: false, tags: [], behaviour: {}, edited: null, pairwise: {}, attention: null, openedAt: now };
}

// Element ids the "still to answer" links point to (the components use the same ones).
export const MOOD_ID = "annotation-mood";
export const EDIT_ID = "annotation-edit";
export const ATTENTION_ID = "annotation-attention";
export const intensityId = (emotion: string) => `annotation-intensity-${emotion}`;
export const behaviourId = (questionId: string) => `annotation-behaviour-${questionId}`;
export const pairwiseId = (questionId: string) => `annotation-pairwise-${questionId}`;

export function toggleTag(draft: AnnotationDraft, emotion: string, on: boolean): AnnotationDraft {
  const tags = draft.tags.filter((tag) => tag.emotion !== emotion);
  if (on) tags.push({ emotion, intensity: null });
  return { ...draft, tags, noChange: on ? false : draft.noChange };
}

export function setNoChange(draft: AnnotationDraft, noChange: boolean): AnnotationDraft {
  // "No clear change" and tagged feelings exclude each other: choosing it clears the tags.
  return { ...draft, noChange, tags: noChange ? [] : draft.tags };
}

export function setIntensity(draft: AnnotationDraft, emotion: string, intensity: number): AnnotationDraft {
  return { ...draft, tags: draft.tags.map((tag) => (tag.emotion === emotion ? { ...tag, intensity } : tag)) };
}

export function setBehaviour(
  draft: AnnotationDraft,
  questionId: string,
  part: "observed" | "preferred",
  answer: Answer,
): AnnotationDraft {
  return { ...draft, behaviour: { ...draft.behaviour, [questionId]: { ...draft.behaviour[questionId], [part]: answer } } };
}

export function setWinner(draft: AnnotationDraft, questionId: string, winner: Winner): AnnotationDraft {
  return { ...draft, pairwise: { ...draft.pairwise, [questionId]: winner } };
}

/** The comparison is asked only once both replies are there. */
export function comparisonIsOpen(step: AnnotationStep): boolean {
  return step.comparison.status === "ready" && step.comparison.responses !== null && step.comparison.questions.length > 0;
}

/** What still needs an answer, in the order the panel shows it. */
export function missingAnswers(
  draft: AnnotationDraft,
  step: AnnotationStep,
  reply: string,
  labelOf: (emotion: string) => string = (emotion) => emotion,
): Missing[] {
  const missing: Missing[] = [];
  if (!draft.noChange && draft.tags.length === 0) {
    missing.push({ targetId: MOOD_ID, label: i18n.t("annotation.missingMood") });
  }
  for (const tag of draft.tags) {
    if (tag.intensity === null) missing.push({ targetId: intensityId(tag.emotion), label: i18n.t("annotation.missingStrength", { emotion: labelOf(tag.emotion) }) });
  }
  for (const question of step.behaviour_questions) {
    const answer = draft.behaviour[question.id];
    if (!answer?.observed || !answer.preferred) missing.push({ targetId: behaviourId(question.id), label: question.text });
  }
  if (step.attention_check && !draft.attention) missing.push({ targetId: ATTENTION_ID, label: i18n.t("attention.missing") });
  if (!(draft.edited ?? reply).trim()) missing.push({ targetId: EDIT_ID, label: i18n.t("annotation.missingEdit") });
  if (comparisonIsOpen(step)) {
    for (const question of step.comparison.questions) {
      if (!(question.id in draft.pairwise)) missing.push({ targetId: pairwiseId(question.id), label: question.text });
    }
  }
  return missing;
}

export function toPayload(draft: AnnotationDraft, step: AnnotationStep, reply: string, now: number): AnnotationPayload {
  const behaviour: AnnotationPayload["behaviour"] = {};
  for (const question of step.behaviour_questions) {
    const answer = draft.behaviour[question.id];
    if (answer?.observed && answer.preferred) behaviour[question.id] = { observed: answer.observed, preferred: answer.preferred };
  }
  const pairwise: Record<string, Winner> = {};
  if (comparisonIsOpen(step)) {
    for (const question of step.comparison.questions) {
      if (question.id in draft.pairwise) pairwise[question.id] = draft.pairwise[question.id] ?? null;
    }
  }
  return {
    mood_tags: draft.noChange
      ? []
      : draft.tags.filter((tag) => tag.intensity !== null).map((tag) => ({ emotion: tag.emotion, intensity: tag.intensity as number })),
    behaviour,
    edited_reply: draft.edited ?? reply,
    pairwise,
    attention: step.attention_check ? (draft.attention ?? null) : null,
    timings: { total: Math.max(0, Math.round((now - draft.openedAt) / 100) / 10) },
  };
}
