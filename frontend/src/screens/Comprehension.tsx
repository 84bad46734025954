// The comprehension check right after consent: the study's questions about the task, two
// attempts (Prolific's policy). The server decides: a wrong first attempt comes back as this
// step again with one attempt left (the questions start blank), a wrong second one as the
// screen-out page with the study's code.
import { useState, type FormEvent } from "react";
import { ChoiceField } from "../components/ChoiceField";
import { MissingList, type Missing } from "../components/MissingList";
import { Screen } from "../components/Screen";
import { SubmitRow } from "../components/SubmitRow";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";
import { useTranslation } from "react-i18next";

export const comprehensionId = (questionId: string) => `comprehension-${questionId}`;

function chosenFor(answers: Record<string, string>, questionId: string): string[] {
  const chosen = answers[questionId];
  return chosen === undefined ? [] : [chosen];
}

export function Comprehension() {
  const { client, session, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const { t } = useTranslation();
  const check = session.comprehension;
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<Missing[]>([]);
  const [attempt, setAttempt] = useState(0);
  if (!check) return null; // the server sends the questions with this step
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const left = check.questions
      .filter((question) => answers[question.id] === undefined)
      .map((question) => ({ targetId: comprehensionId(question.id), label: question.question }));
    setMissing(left);
    setAttempt((n) => n + 1);
    if (left.length) return;
    void run(async () => {
      const next = await client.comprehension(answers);
      // A wrong first attempt: the same step again, its answers cleared for a fresh read.
      setAnswers({});
      setAttempt(0);
      setSession(next);
    });
  };
  return (
    <Screen title={t("comprehension.title")} lead={<p>{t("comprehension.lead")}</p>}>
      {check.failed_before ? (
        <div className="notice notice-error" role="alert">
          <p>{t("comprehension.retry")}</p>
        </div>
      ) : null}
      <p className="meta">{t("comprehension.attemptsLeft", { count: check.attempts_left })}</p>
      <form onSubmit={submit} noValidate>
        {check.questions.map((question) => (
          <ChoiceField
            key={`${question.id}-${check.attempts_left}`}
            id={comprehensionId(question.id)}
            legend={question.question}
            options={question.options.map((option) => ({ id: option.id, label: option.text }))}
            value={chosenFor(answers, question.id)}
            invalid={attempt > 0 && answers[question.id] === undefined}
            onChange={([chosen]) => {
              if (chosen !== undefined) setAnswers((a) => ({ ...a, [question.id]: chosen }));
            }}
          />
        ))}
        <MissingList attempt={attempt} items={missing.filter((m) => answers[m.targetId.slice("comprehension-".length)] === undefined)} />
        <SubmitRow label={t("comprehension.submit")} busy={busy} error={error} />
      </form>
    </Screen>
  );
}
