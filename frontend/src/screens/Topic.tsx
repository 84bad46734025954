// The conversation's topic: one of the study's topics (and optionally a subtopic), or free
// text when the study lists none. A topic with `other: true` ("Something else") asks for the
// participant's own words. Everything chosen or typed is a draft until the chat opens.
import { useState, type FormEvent } from "react";
import { asksText, ChoiceField, otherTextId } from "../components/ChoiceField";
import { ErrorNotice } from "../components/ErrorNotice";
import { Screen } from "../components/Screen";
import { SubmitRow } from "../components/SubmitRow";
import { useFocusAfterRender } from "../components/useFocusAfterRender";
import { useDraft } from "../drafts/useDraft";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";
import { useTranslation } from "react-i18next";

export const TOPIC_DRAFT = "topic"; // the key the server clears when the chat opens
const CATEGORY_ID = "topic-category";

export interface TopicDraft {
  category: string;
  subtopic: string;
  other: string;
}

const emptyTopic = (): TopicDraft => ({ category: "", subtopic: "", other: "" });
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function Topic() {
  const { client, session, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const { t } = useTranslation();
  const topics = session.study.topics;
  const [stored, setDraft, clear] = useDraft<TopicDraft>(TOPIC_DRAFT, emptyTopic);
  const draft = { ...emptyTopic(), ...stored }; // a draft saved before a field existed
  const [problem, setProblem] = useState<string | null>(null);
  const focusAfterRender = useFocusAfterRender();
  // The stored value stays the category (answers compare across languages); the label is the
  // participant's language's.
  const labelOf = (value: string) => capitalise(session.study.topic_labels[value] ?? value);
  const options = topics.map((topic) => ({ id: topic.category, label: labelOf(topic.category), other: topic.other }));
  const subtopics = topics.find((t) => t.category === draft.category)?.subtopics ?? [];
  const wantsText = asksText(options, [draft.category]);
  const set = (change: Partial<TopicDraft>) => {
    setProblem(null);
    setDraft((d) => ({ ...emptyTopic(), ...d, ...change }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const other = draft.other.trim();
    const found = !draft.category.trim() ? CATEGORY_ID : wantsText && !other ? otherTextId(CATEGORY_ID) : null;
    if (found) {
      setProblem(found);
      focusAfterRender(found);
      return;
    }
    void run(async () => {
      const next = await client.topic(draft.category.trim(), draft.subtopic, wantsText ? { category: other } : undefined);
      clear();
      setSession(next);
    });
  };
  const categoryMissing = problem === CATEGORY_ID;
  return (
    <Screen title={t("topic.title")} lead={<p>{t("topic.lead")}</p>}>
      <form onSubmit={submit} noValidate>
        {topics.length ? (
          <ChoiceField
            id={CATEGORY_ID}
            legend={t("topic.legend")}
            options={options}
            value={draft.category ? [draft.category] : []}
            invalid={categoryMissing}
            onChange={([value]) => set({ category: value ?? "", subtopic: "" })}
            other={{
              label: t("topic.otherLabel"),
              value: draft.other,
              invalid: problem === otherTextId(CATEGORY_ID),
              onChange: (text) => set({ other: text }),
            }}
          />
        ) : (
          <div className={categoryMissing ? "field invalid" : "field"}>
            <label htmlFor={CATEGORY_ID}>{t("topic.legend")}</label>
            <input
              id={CATEGORY_ID}
              maxLength={200}
              value={draft.category}
              aria-invalid={categoryMissing}
              onChange={(event) => set({ category: event.target.value })}
            />
          </div>
        )}
        {subtopics.length ? (
          <ChoiceField
            legend={t("topic.subtopics")}
            options={subtopics.map((s) => ({ id: s, label: labelOf(s) }))}
            value={draft.subtopic ? [draft.subtopic] : []}
            onChange={([value]) => set({ subtopic: value ?? "" })}
          />
        ) : null}
        {categoryMissing ? <ErrorNotice error={t("topic.missing")} /> : null}
        <SubmitRow label={t("topic.start")} busy={busy} error={error} />
      </form>
    </Screen>
  );
}
