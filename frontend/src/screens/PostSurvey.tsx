// The questions after the chat: Q1-Q3 and the Q3 follow-up (shown only for the answers the
// instrument lists), then the four-branch ratings. Wording and options come from the instrument;
// an option with `other: true` ("Something else") asks for the participant's own words.
import { useState, type FormEvent } from "react";
import { asksText, ChoiceField, otherTextId } from "../components/ChoiceField";
import { MissingList, type Missing } from "../components/MissingList";
import { ScaleField } from "../components/ScaleField";
import { Screen } from "../components/Screen";
import { SubmitRow } from "../components/SubmitRow";
import { useDraft } from "../drafts/useDraft";
import type { ChoiceQuestion, Instrument, PostSurveyPayload } from "../api/types";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";
import { useTranslation } from "react-i18next";
import { i18n } from "../i18n";

export const POST_SURVEY_DRAFT = "post_survey"; // the key the server clears on submit

export interface PostSurveyDraft {
  lookingFor: string[];
  clarity: string | null;
  fit: string | null;
  followUp: string;
  branches: Record<string, number>;
  /** The API's field (looking_for...) -> the text of its "Something else" option. */
  other: Record<string, string>;
}

export function emptyPostSurvey(): PostSurveyDraft {
  return { lookingFor: [], clarity: null, fit: null, followUp: "", branches: {}, other: {} };
}

type AnswerField = "looking_for" | "emotion_clarity" | "model_fit";

/** Q1-Q3 as the API names them, with the element id, the question and what is chosen. */
function choices(instrument: Instrument, draft: PostSurveyDraft): [AnswerField, string, ChoiceQuestion, string[]][] {
  return [
    ["looking_for", "q1", instrument.q1_looking_for, draft.lookingFor],
    ["emotion_clarity", "q2", instrument.q2_emotion_clarity, draft.clarity ? [draft.clarity] : []],
    ["model_fit", "q3", instrument.q3_model_fit, draft.fit ? [draft.fit] : []],
  ];
}

export function followUpShown(instrument: Instrument, draft: PostSurveyDraft): boolean {
  return draft.fit !== null && instrument.q3_follow_up.shown_when.includes(draft.fit);
}

export function postSurveyMissing(instrument: Instrument, draft: PostSurveyDraft): Missing[] {
  const missing: Missing[] = [];
  if (!draft.lookingFor.length) missing.push({ targetId: "q1", label: instrument.q1_looking_for.prompt });
  if (!draft.clarity) missing.push({ targetId: "q2", label: instrument.q2_emotion_clarity.prompt });
  if (!draft.fit) missing.push({ targetId: "q3", label: instrument.q3_model_fit.prompt });
  for (const [field, id, question, chosen] of choices(instrument, draft)) {
    if (asksText(question.options, chosen) && !(draft.other[field] ?? "").trim()) {
      missing.push({ targetId: otherTextId(id), label: i18n.t("postSurvey.describe", { prompt: question.prompt }) });
    }
  }
  for (const branch of instrument.four_branches) {
    if (draft.branches[branch.id] === undefined) missing.push({ targetId: `branch-${branch.id}`, label: branch.text });
  }
  return missing;
}

export function postSurveyPayload(instrument: Instrument, draft: PostSurveyDraft): PostSurveyPayload {
  const followUp = draft.followUp.trim();
  const otherText: Record<string, string> = {};
  for (const [field, , question, chosen] of choices(instrument, draft)) {
    if (asksText(question.options, chosen)) otherText[field] = (draft.other[field] ?? "").trim();
  }
  return {
    looking_for: draft.lookingFor,
    emotion_clarity: draft.clarity ?? "",
    model_fit: draft.fit ?? "",
    what_felt_off: followUpShown(instrument, draft) && followUp ? [followUp] : [],
    four_branch: draft.branches,
    ...(Object.keys(otherText).length ? { other_text: otherText } : {}),
  };
}

export function PostSurvey() {
  const { client, instrument, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const { t } = useTranslation();
  const [stored, setDraft, clear] = useDraft<PostSurveyDraft>(POST_SURVEY_DRAFT, emptyPostSurvey);
  const draft = { ...emptyPostSurvey(), ...stored }; // a draft saved before a field existed
  const [attempt, setAttempt] = useState(0);
  const missing = attempt ? postSurveyMissing(instrument, draft) : [];
  const isMissing = (id: string) => missing.some((m) => m.targetId === id);
  const set = (change: Partial<PostSurveyDraft>) => setDraft((d) => ({ ...emptyPostSurvey(), ...d, ...change }));
  const otherOf = (field: AnswerField, id: string) => ({
    value: draft.other[field] ?? "",
    invalid: isMissing(otherTextId(id)),
    onChange: (text: string) => setDraft((d) => ({ ...emptyPostSurvey(), ...d, other: { ...d.other, [field]: text } })),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((n) => n + 1);
    if (postSurveyMissing(instrument, draft).length) return;
    void run(async () => {
      const session = await client.postSurvey(postSurveyPayload(instrument, draft));
      clear();
      setSession(session);
    });
  };
  const q1 = instrument.q1_looking_for;
  const q2 = instrument.q2_emotion_clarity;
  const q3 = instrument.q3_model_fit;
  return (
    <Screen title={t("postSurvey.title")} lead={<p>{t("postSurvey.lead")}</p>}>
      <form onSubmit={submit} noValidate>
        <ChoiceField
          id="q1"
          legend={q1.prompt}
          options={q1.options}
          multi={q1.multi}
          value={draft.lookingFor}
          invalid={isMissing("q1")}
          onChange={(value) => set({ lookingFor: value })}
          other={otherOf("looking_for", "q1")}
        />
        <ChoiceField
          id="q2"
          legend={q2.prompt}
          options={q2.options}
          multi={q2.multi}
          value={draft.clarity ? [draft.clarity] : []}
          invalid={isMissing("q2")}
          onChange={(value) => set({ clarity: value[value.length - 1] ?? null })}
          other={otherOf("emotion_clarity", "q2")}
        />
        <ChoiceField
          id="q3"
          legend={q3.prompt}
          options={q3.options}
          multi={q3.multi}
          value={draft.fit ? [draft.fit] : []}
          invalid={isMissing("q3")}
          onChange={(value) => set({ fit: value[value.length - 1] ?? null })}
          other={otherOf("model_fit", "q3")}
        />
        {followUpShown(instrument, draft) ? (
          <div className="field">
            <label htmlFor="q3-follow-up">{instrument.q3_follow_up.prompt}</label>
            <textarea
              id="q3-follow-up"
              rows={4}
              value={draft.followUp}
              onChange={(event) => set({ followUp: event.target.value })}
            />
          </div>
        ) : null}
        <h2 className="subheading">{t("postSurvey.ratings")}</h2>
        {instrument.four_branches.map((branch) => (
          <ScaleField
            key={branch.id}
            id={`branch-${branch.id}`}
            legend={branch.text}
            hint={branch.label}
            scale={instrument.intensity_scale}
            value={draft.branches[branch.id]}
            invalid={isMissing(`branch-${branch.id}`)}
            onChange={(value) => set({ branches: { ...draft.branches, [branch.id]: value } })}
          />
        ))}
        <MissingList items={missing} attempt={attempt} />
        <SubmitRow label={t("postSurvey.submit")} busy={busy} error={error} />
      </form>
    </Screen>
  );
}
