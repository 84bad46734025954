// The profile questionnaire, rendered from the instrument (its questions, options and wording
// live there): the age as a number, every other question as choices with option ids. An
// option that asks for text ("other") opens a text box. An age under the study's minimum is
// not final until the participant confirms it ("You entered 15. Is that right?").
import { useEffect, useRef, useState, type FormEvent } from "react";
import { flushSync } from "react-dom";
import { ApiError } from "../api/client";
import type { ProfilePayload, ProfileQuestion } from "../api/types";
import { asksText, ChoiceField, otherTextId } from "../components/ChoiceField";
import { Screen } from "../components/Screen";
import { SubmitRow } from "../components/SubmitRow";
import { useDraft } from "../drafts/useDraft";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";
import { useTranslation } from "react-i18next";

export const PROFILE_DRAFT = "profile";

export interface ProfileDraft {
  age: string;
  answers: Record<string, string[]>;
  other: Record<string, string>;
}

const emptyProfile = (): ProfileDraft => ({ age: "", answers: {}, other: {} });

/** A choice changed: an exclusive option ("none", "prefer not to say") stands alone. */
export function nextChoices(question: ProfileQuestion, before: string[], after: string[]): string[] {
  const added = after.filter((id) => !before.includes(id));
  const exclusive = new Set(question.options.filter((o) => o.exclusive).map((o) => o.id));
  if (added.some((id) => exclusive.has(id))) return added.filter((id) => exclusive.has(id)).slice(-1);
  return added.length ? after.filter((id) => !exclusive.has(id)) : after;
}

export function parseAge(text: string): number | null {
  const age = Number.parseInt(text, 10);
  return Number.isInteger(age) && age >= 0 && age <= 200 && String(age) === text.trim() ? age : null;
}

/** The first problem of the form as the id of the element to focus, or null. */
export function firstProblem(questions: ProfileQuestion[], draft: ProfileDraft): string | null {
  for (const question of questions) {
    const chosen = draft.answers[question.id] ?? [];
    if (question.kind === "number") {
      if (parseAge(draft.age) === null) return `profile-${question.id}`;
    } else if (question.required && !chosen.length) return `profile-${question.id}`;
    else if (asksText(question.options, chosen) && !(draft.other[question.id] ?? "").trim()) return otherTextId(`profile-${question.id}`);
  }
  return null;
}

export function profilePayload(questions: ProfileQuestion[], draft: ProfileDraft, ageConfirmed: boolean): ProfilePayload {
  const answers: Record<string, string | string[]> = {};
  const other: Record<string, string> = {};
  for (const question of questions) {
    const chosen = draft.answers[question.id] ?? [];
    if (question.kind === "number" || !chosen.length) continue;
    const [first = ""] = chosen;
    answers[question.id] = question.kind === "multi" ? chosen : first;
    if (asksText(question.options, chosen)) other[question.id] = (draft.other[question.id] ?? "").trim();
  }
  return { age: parseAge(draft.age) ?? 0, age_confirmed: ageConfirmed, answers, other_text: other };
}

export function Profile() {
  const { client, drafts, instrument, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const { t } = useTranslation();
  const [draft, setDraft] = useDraft<ProfileDraft>(PROFILE_DRAFT, emptyProfile);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const confirmRef = useRef<HTMLParagraphElement>(null);
  const questions = instrument.profile;

  useEffect(() => {
    if (confirming !== null) confirmRef.current?.focus();
  }, [confirming]);

  const send = (ageConfirmed: boolean) =>
    run(async () => {
      try {
        const session = await client.profile(profilePayload(questions, draft, ageConfirmed));
        drafts.clear(PROFILE_DRAFT);
        setSession(session);
      } catch (caught) {
        if (caught instanceof ApiError && caught.extra.needs_confirmation) {
          setConfirming(parseAge(draft.age));
          return;
        }
        throw caught;
      }
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = firstProblem(questions, draft);
    // Render the error first, so a screen reader reads it when the focus arrives.
    flushSync(() => setProblem(found));
    if (found) {
      document.getElementById(found)?.focus();
      return;
    }
    void send(false);
  };

  const correctAge = () => {
    flushSync(() => setConfirming(null));
    document.getElementById("profile-age")?.focus();
  };

  const setAnswer = (question: ProfileQuestion, value: string[]) => {
    setProblem(null);
    setDraft((d) => ({ ...d, answers: { ...d.answers, [question.id]: nextChoices(question, d.answers[question.id] ?? [], value) } }));
  };

  return (
    <Screen title={t("profile.title")} lead={<p>{t("profile.lead")}</p>}>
      <form onSubmit={submit} noValidate>
        {questions.map((question) => {
          const id = `profile-${question.id}`;
          const chosen = draft.answers[question.id] ?? [];
          if (question.kind === "number") {
            const invalid = problem === id;
            return (
              <div key={question.id} className={invalid ? "field invalid" : "field"}>
                <label htmlFor={id}>{question.prompt}</label>
                <input
                  id={id}
                  className="short"
                  inputMode="numeric"
                  autoComplete="off"
                  aria-invalid={invalid}
                  aria-describedby={invalid ? `${id}-error` : undefined}
                  value={draft.age}
                  onChange={(event) => {
                    setProblem(null);
                    setConfirming(null);
                    setDraft((d) => ({ ...d, age: event.target.value }));
                  }}
                />
                {invalid ? (
                  <p className="field-error" id={`${id}-error`}>
                    {t("profile.ageError")}
                  </p>
                ) : null}
              </div>
            );
          }
          return (
            <ChoiceField
              key={question.id}
              id={id}
              legend={question.prompt}
              options={question.options}
              multi={question.kind === "multi"}
              value={chosen}
              invalid={problem === id}
              hint={problem === id ? <span className="field-error">{t("profile.choiceError")}</span> : undefined}
              onChange={(value) => setAnswer(question, value)}
              other={{
                value: draft.other[question.id] ?? "",
                invalid: problem === otherTextId(id),
                onChange: (text) => {
                  setProblem(null);
                  setDraft((d) => ({ ...d, other: { ...d.other, [question.id]: text } }));
                },
              }}
            />
          );
        })}
        {confirming !== null ? (
          <div className="field confirm" role="group" aria-labelledby="profile-age-confirm">
            <p id="profile-age-confirm" ref={confirmRef} tabIndex={-1}>
              {t("profile.confirmAge", { age: confirming })}
            </p>
            <button type="button" className="primary" aria-disabled={busy} onClick={() => void send(true)}>
              {t("profile.yesMyAge")}
            </button>
            <button type="button" onClick={correctAge}>
              {t("profile.correctAge")}
            </button>
          </div>
        ) : (
          <SubmitRow label={t("common.continue")} busy={busy} error={error} />
        )}
      </form>
    </Screen>
  );
}
