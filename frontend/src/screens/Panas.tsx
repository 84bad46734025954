// The PANAS questionnaire before and after the chat: every item of the instrument on its
// intensity scale. Items, descriptions and scale labels all come from the instrument.
import { useState, type FormEvent } from "react";
import { MissingList, type Missing } from "../components/MissingList";
import { ScaleField } from "../components/ScaleField";
import { Screen } from "../components/Screen";
import { SubmitRow } from "../components/SubmitRow";
import { useDraft } from "../drafts/useDraft";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";
import { useTranslation } from "react-i18next";

export function panasDraftKey(phase: "pre" | "post"): string {
  return `panas:${phase}`; // the key the server clears when the questionnaire is saved
}

export function Panas({ phase }: { phase: "pre" | "post" }) {
  const { client, drafts, instrument, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const { t } = useTranslation();
  const key = panasDraftKey(phase);
  const [values, setValues] = useDraft<Record<string, number>>(key, () => ({}));
  const [missing, setMissing] = useState<Missing[]>([]);
  const [attempt, setAttempt] = useState(0);
  const items = instrument.panas_items;
  const answered = items.filter((item) => values[item.id] !== undefined).length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const left = items
      .filter((item) => values[item.id] === undefined)
      .map((item) => ({ targetId: `panas-${item.id}`, label: item.label }));
    setMissing(left);
    setAttempt((n) => n + 1);
    if (left.length) return;
    void run(async () => {
      const session = await client.panas(phase, values);
      drafts.clear(key);
      setSession(session);
    });
  };
  return (
    <Screen
      title={phase === "pre" ? t("panas.titlePre") : t("panas.titlePost")}
      lead={<p>{t("panas.lead")}</p>}
    >
      <form onSubmit={submit} noValidate>
        <p className="meta" aria-live="polite">
          {t("panas.answered", { answered, total: items.length })}
        </p>
        {items.map((item) => (
          <ScaleField
            key={item.id}
            id={`panas-${item.id}`}
            legend={item.label}
            hint={item.description}
            scale={instrument.intensity_scale}
            value={values[item.id]}
            invalid={missing.some((m) => m.targetId === `panas-${item.id}`) && values[item.id] === undefined}
            onChange={(value) => setValues((v) => ({ ...v, [item.id]: value }))}
          />
        ))}
        <MissingList attempt={attempt} items={missing.filter((m) => values[m.targetId.slice("panas-".length)] === undefined)} />
        <SubmitRow label={t("common.continue")} busy={busy} error={error} />
      </form>
    </Screen>
  );
}
