// The conversation's topic: one of the study's topics (and optionally a subtopic), or free
// text when the study lists none.
import { useState, type FormEvent } from "react";
import { ChoiceField } from "../components/ChoiceField";
import { ErrorNotice } from "../components/ErrorNotice";
import { Screen } from "../components/Screen";
import { SubmitRow } from "../components/SubmitRow";
import { useFocusAfterRender } from "../components/useFocusAfterRender";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function Topic() {
  const { client, session, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const topics = session.study.topics;
  const [category, setCategory] = useState("");
  const [subtopic, setSubtopic] = useState("");
  const [invalid, setInvalid] = useState(false);
  const focusAfterRender = useFocusAfterRender();
  const subtopics = topics.find((t) => t.category === category)?.subtopics ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!category.trim()) {
      setInvalid(true);
      focusAfterRender("topic-category");
      return;
    }
    void run(async () => setSession(await client.topic(category.trim(), subtopic)));
  };
  return (
    <Screen title="Choose a topic" lead={<p>What would you like to talk about with the assistant?</p>}>
      <form onSubmit={submit} noValidate>
        {topics.length ? (
          <ChoiceField
            id="topic-category"
            legend="Topic"
            options={topics.map((t) => ({ id: t.category, label: capitalise(t.category) }))}
            value={category ? [category] : []}
            invalid={invalid && !category}
            onChange={([value]) => {
              setCategory(value ?? "");
              setSubtopic("");
              setInvalid(false);
            }}
          />
        ) : (
          <div className={invalid ? "field invalid" : "field"}>
            <label htmlFor="topic-category">Topic</label>
            <input
              id="topic-category"
              maxLength={200}
              value={category}
              aria-invalid={invalid}
              onChange={(event) => {
                setCategory(event.target.value);
                setInvalid(false);
              }}
            />
          </div>
        )}
        {subtopics.length ? (
          <ChoiceField
            legend="More precisely (optional)"
            options={subtopics.map((s) => ({ id: s, label: capitalise(s) }))}
            value={subtopic ? [subtopic] : []}
            onChange={([value]) => setSubtopic(value ?? "")}
          />
        ) : null}
        {invalid ? <ErrorNotice error="Please choose a topic." /> : null}
        <SubmitRow label="Start the chat" busy={busy} error={error} />
      </form>
    </Screen>
  );
}
