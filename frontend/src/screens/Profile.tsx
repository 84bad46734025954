// A short profile. The API has no profile questionnaire yet (see docs/architecture.md,
// "Participant web app"), so the fields follow the profile the API accepts: age, traits,
// goals and an optional self-reported diagnosis.
import { useState, type FormEvent } from "react";
import { SubmitRow } from "../components/SubmitRow";
import { Screen } from "../components/Screen";
import { useDraft } from "../drafts/useDraft";
import { useStudy } from "../StudyContext";
import { useAction } from "../useAction";

export const PROFILE_DRAFT = "profile";

interface ProfileDraft {
  age: string;
  traits: string;
  goals: string;
  diagnosis: string;
}

/** A free list, one entry per line. */
interface LinesFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
}

function LinesField({ id, label, value, onChange }: LinesFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <p className="hint" id={`${id}-hint`}>
        One per line.
      </p>
      <textarea id={id} rows={3} aria-describedby={`${id}-hint`} value={value} onChange={onChange} />
    </div>
  );
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

export function Profile() {
  const { client, drafts, setSession } = useStudy();
  const { busy, error, run } = useAction();
  const [draft, setDraft] = useDraft<ProfileDraft>(PROFILE_DRAFT, () => ({ age: "", traits: "", goals: "", diagnosis: "" }));
  const [ageInvalid, setAgeInvalid] = useState(false);
  const field = (name: keyof ProfileDraft) => ({
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: event.target.value })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const age = Number.parseInt(draft.age, 10);
    if (!Number.isInteger(age) || age < 0 || age > 200 || String(age) !== draft.age.trim()) {
      setAgeInvalid(true);
      document.getElementById("profile-age")?.focus();
      return;
    }
    void run(async () => {
      const session = await client.profile({
        age,
        traits: lines(draft.traits),
        goals: lines(draft.goals),
        diagnosis: draft.diagnosis.trim() || null,
      });
      drafts.clear(PROFILE_DRAFT);
      setSession(session);
    });
  };
  return (
    <Screen title="About you" lead={<p>A few questions before the chat. Only the first one is required.</p>}>
      <form onSubmit={submit} noValidate>
        <div className={ageInvalid ? "field invalid" : "field"}>
          <label htmlFor="profile-age">Your age in years</label>
          <input
            id="profile-age"
            className="short"
            inputMode="numeric"
            autoComplete="off"
            aria-invalid={ageInvalid}
            aria-describedby={ageInvalid ? "profile-age-error" : undefined}
            {...field("age")}
            onChange={(event) => {
              setAgeInvalid(false);
              setDraft((d) => ({ ...d, age: event.target.value }));
            }}
          />
          {ageInvalid ? (
            <p className="field-error" id="profile-age-error">
              Enter your age as a whole number.
            </p>
          ) : null}
        </div>
        <LinesField id="profile-traits" label="Words that describe you (optional)" {...field("traits")} />
        <LinesField
          id="profile-goals"
          label="What you hope to get from talking to an AI assistant (optional)"
          {...field("goals")}
        />
        <div className="field">
          <label htmlFor="profile-diagnosis">A diagnosis you would like to tell us about (optional)</label>
          <input id="profile-diagnosis" autoComplete="off" {...field("diagnosis")} />
        </div>
        <SubmitRow label="Continue" busy={busy} error={error} />
      </form>
    </Screen>
  );
}
