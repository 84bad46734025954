// The message box. Its text is a draft (saved once typing pauses, locally and on the server),
// and so is the idempotency key of a message being sent: a reload during the send and a
// second press of Send both reuse it, so the server stores the message once. A message waiting
// for a connection (the outbox) stays in the box, read-only, with a calm note saying so.
import { useEffect, type FormEvent, type KeyboardEvent } from "react";
import type { Turn } from "../api/types";
import { useDraft } from "../drafts/useDraft";
import { newIdempotencyKey } from "./idempotency";

export const MESSAGE_DRAFT = "message"; // the key the server clears when it stores a message
export const WAITING_FOR_CONNECTION =
  "Waiting for a connection: your message is saved and will be sent when you are back online.";

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
      <label htmlFor="message">Your message</label>
      {reason && !waiting ? (
        <p className="hint" id="message-reason">
          {reason}
        </p>
      ) : null}
      <div role="status">
        {waiting ? (
          <p className="notice notice-wait" id="message-waiting">
            {WAITING_FOR_CONNECTION}
          </p>
        ) : null}
      </div>
      <textarea
        id="message"
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
          {draft.text.length} / {maxChars} characters
        </span>
        <button type="submit" className="primary" aria-disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  );
}
