// One exchange of the conversation: the participant's message and the assistant's reply (or
// the reply on its way, or the failure with a retry button). The model is only ever "Assistant".
// The support notice a message raised goes right under that message (`support`).
import type { ReactNode } from "react";
import type { Turn } from "../api/types";
import type { LiveTurn } from "./useChatStream";
import { useTranslation } from "react-i18next";

interface TurnViewProps {
  turn: Turn | null;
  live: LiveTurn | null;
  busy: boolean;
  onRetry: (turn: Turn) => void;
  support?: ReactNode;
}

function Message({ speaker, text, className, busy = false }: { speaker: string; text: string; className: string; busy?: boolean }) {
  return (
    <div className={`message ${className}`} aria-busy={busy || undefined}>
      <span className="speaker">{speaker}</span>
      <p className="message-text" dir="auto">
        {text}
      </p>
    </div>
  );
}

export function TurnView({ turn, live, busy, onRetry, support = null }: TurnViewProps) {
  const { t } = useTranslation();
  const userMessage = live?.userMessage ?? turn?.user_message ?? "";
  let reply;
  if (live) {
    reply = live.text ? (
      <Message speaker={t("chat.assistant")} text={live.text} className="message-assistant streaming" busy />
    ) : live.queued ? (
      <p className="typing typing-queued" role="status">
        <span className="spinner" aria-hidden="true" /> {t("chat.queued")}
      </p>
    ) : (
      <p className="typing" role="status">
        <span className="spinner" aria-hidden="true" /> {t("chat.writing")}
      </p>
    );
  } else if (turn?.status === "done") {
    reply = <Message speaker={t("chat.assistant")} text={turn.reply} className="message-assistant" />;
  } else if (turn?.status === "failed") {
    reply = (
      <div className="notice notice-error" role="alert">
        <p>{turn.error?.message ?? t("chat.failed")}</p>
        <button type="button" className="primary" aria-disabled={busy} onClick={() => busy || onRetry(turn)}>
          {t("app.tryAgain")}
        </button>
      </div>
    );
  } else if (turn) {
    reply = (
      <p className="typing" role="status">
        <span className="spinner" aria-hidden="true" /> {t("chat.onItsWay")}
      </p>
    );
  }
  return (
    <li className="turn">
      <Message speaker={t("chat.you")} text={userMessage} className="message-user" />
      {support}
      {reply}
    </li>
  );
}
