// The message box. Its text is a draft (saved once typing pauses, locally and on the server),
// and so is the idempotency key of a message being sent: a reload during the send and a
// second press of Send both reuse it, so the server stores the message once. A message waiting
// for a connection (the outbox) stays in the box, read-only, with a calm note saying so.
import { useEffect, type FormEvent, type KeyboardEvent } from "react";
import type { Turn } from "../api/types";
import { useDraft } from "../drafts/useDraft";
import { newIdempotencyKey } from "./idempotency";
import { useTranslation } from "react-i18next";
import en from "../i18n/locales/en";

export const MESSAGE_DRAFT = "message"; // the key the server clears when it stores a message
export const WAITING_FOR_CONNECTION = en.chat.waitingForConnection; // what the tests look for

interface MessageDraft {
  text: string;
  key: string | null;
}

interface ComposerProps {
  turns: Turn[];
  maxChars: number;
  enabled: boolean;
  reason: string | null;
  /** The message in the box waits in the outbox for a connection. */
  waiting?: boolean;
  /** The key of the last message the server stored while this page was open. */
  delivered?: string | null;
  onSend: (text: string, key: string, onStored: () => void) => Promise<void>;
}

export function Composer({ turns, maxChars, enabled, reason, waiting = false, delivered = null, onSend }: ComposerProps) {
  const { t } = useTranslation();
  const [draft, setDraft, clear] = useDraft<MessageDraft>(MESSAGE_DRAFT, () => ({ text: "", key: null }));
  // Recognised by its idempotency key, never by its text: "ok" sent twice is two messages.
  const sentAlready =
    draft.key !== null && (draft.key === delivered || turns.some((turn) => turn.idempotency_key === draft.key));
  useEffect(() => {
    // The message was stored before the page went away: the draft has done its job.
    if (sentAlready) clear();
  }, [sentAlready, clear]);

  const tooLong = draft.text.length > maxChars;
  const canSend = enabled && draft.text.trim() !== "" && !tooLong;
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    const key = draft.key ?? newIdempotencyKey();
    setDraft({ text: draft.text, key });
    void onSend(draft.text, key, clear);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter makes a new line (phones have no other way); Ctrl/Cmd+Enter sends.
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) send();
  };
  return (
    <form className="composer" onSubmit={send} noValidate>
      <label htmlFor="message">{t("chat.yourMessage")}</label>
      {reason && !waiting ? (
        <p className="hint" id="message-reason">
          {reason}
        </p>
      ) : null}
      <div role="status">
        {waiting ? (
          <p className="notice notice-wait" id="message-waiting">
            {t("chat.waitingForConnection")}
          </p>
        ) : null}
      </div>
      <textarea
        id="message"
        dir="auto"
        rows={3}
        value={draft.text}
        aria-describedby={`message-count${waiting ? " message-waiting" : reason ? " message-reason" : ""}`}
        aria-invalid={tooLong}
        readOnly={waiting}
        onKeyDown={onKeyDown}
        onChange={(event) => setDraft({ text: event.target.value, key: null })}
      />
      <div className="composer-row">
        <span id="message-count" className={tooLong ? "count over" : "count"}>
          {t("chat.characters", { length: draft.text.length, max: maxChars })}
        </span>
        <button type="submit" className="primary" aria-disabled={!canSend}>
          {t("chat.send")}
        </button>
      </div>
    </form>
  );
}
