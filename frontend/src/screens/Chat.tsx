// The chat: the conversation so far, the reply streaming in, the questions about the last
// reply, the progress toward the minimum, and the message box. The session (from the server)
// says what is allowed; this screen only lays it out.
import { useCallback, useEffect, useRef, useState } from "react";
import { AnnotationPanel } from "../annotation/AnnotationPanel";
import type { Support, Turn } from "../api/types";
import { Composer } from "../chat/Composer";
import { FinishChat } from "../chat/FinishChat";
import { TurnProgress } from "../chat/TurnProgress";
import { TurnView } from "../chat/TurnView";
import { useChatStream } from "../chat/useChatStream";
import { ErrorNotice } from "../components/ErrorNotice";
import { Screen } from "../components/Screen";
import { useMessageOutbox, type Deliver } from "../outbox/useMessageOutbox";
import { SupportBanner } from "../safety/SupportBanner";
import { useStudy } from "../StudyContext";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";

const WAITING_POLL_MS = 3000;

/** Why the message box is closed, in the participant's terms (null: it is open). */
function composerReason(last: Turn | undefined, streaming: boolean, canSend: boolean, t: TFunction): string | null {
  if (streaming) return t("chat.waitReply");
  if (last?.status === "failed") return t("chat.retryFirst");
  if (last && last.status !== "done") return t("chat.waitReply");
  if (last && !last.annotation_submitted) return t("chat.answerFirst");
  return canSend ? null : t("chat.noMore");
}

/** The notice of the later turn: a message just sent may have raised one the session has not
 * been read again for yet. */
function newerNotice(a: Support | null, b: Support | null): Support | null {
  if (!a || !b) return a ?? b;
  return (b.turn ?? 0) > (a.turn ?? 0) ? b : a;
}

export function Chat() {
  const { session, refresh } = useStudy();
  const { t } = useTranslation();
  const [streamed, setStreamed] = useState<Support | null>(null);
  const onSupport = useCallback((support: Support) => setStreamed(support), []);
  const stream = useChatStream(onSupport);
  const chat = session.chat ?? { turns: [], answered: 0, can_send: false, can_finish: false };
  const study = session.study;
  const turns = chat.turns;
  const last = turns[turns.length - 1];
  const live = stream.live;
  const waiting = !live && last !== undefined && (last.status === "streaming" || last.status === "pending");

  // A reply that was on its way when the page loaded (a reload mid-reply): re-attach to it, once
  // per turn; the server generates it whoever reads it.
  const attached = useRef<number | null>(null);
  const { attach } = stream;
  useEffect(() => {
    if (!waiting || last === undefined || attached.current === last.number) return;
    attached.current = last.number;
    void attach(last);
  }, [waiting, last, attach]);

  // If that fails, ask again until the server settles it.
  // Polls may overlap on a slow connection: the session store keeps only the newest answer.
  useEffect(() => {
    if (!waiting) return;
    const controller = new AbortController();
    const timer = setInterval(() => void refresh(controller.signal).catch(() => undefined), WAITING_POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [waiting, refresh]);

  // Once a reply's questions are saved their panel goes away: the message box is next, and a
  // calm note (a status, not an alert) says the answers are kept until the next message goes.
  const [saved, setSaved] = useState(false);
  const afterSave = useCallback(async () => {
    await refresh();
    setSaved(true);
    setTimeout(() => document.getElementById("message")?.focus(), 0);
  }, [refresh]);
  const { send: sendMessage } = stream;
  // A message goes through the outbox: offline it waits (same idempotency key) and goes by itself.
  const deliver = useCallback<Deliver>(
    (message, onStored) =>
      new Promise((resolve) => {
        let stored = false;
        const onTurn = () => {
          stored = true;
          onStored();
        };
        void sendMessage(message.text, message.key, onTurn, () => resolve("unreached")).then(() =>
          resolve(stored ? "stored" : "refused"),
        );
      }),
    [sendMessage],
  );
  const outbox = useMessageOutbox(turns, deliver);
  const { submit } = outbox;
  const send = useCallback(
    (text: string, key: string, onStored: () => void) => {
      setSaved(false);
      return submit(text, key, onStored);
    },
    [submit],
  );

  const toAnnotate = !live && last?.status === "done" && !last.annotation_submitted ? last : null;
  const reason = composerReason(last, live !== null, chat.can_send, t);
  // Topics are stored by the study's values; the study's labels show them in this language.
  const labelOf = (value: string) => study.topic_labels[value] ?? value;
  const topic = session.conversation
    ? [
        session.conversation.topic_other || labelOf(session.conversation.topic_category),
        labelOf(session.conversation.topic_subtopic),
      ]
        .filter(Boolean)
        .join(" · ")
    : "";
  const liveIsNew = live !== null && (live.number === null || !turns.some((t) => t.number === live.number));
  const retry = (turn: Turn) => void stream.retry(turn);
  // One list for the stored turns and the reply on its way: when the reply is stored it stays
  // the same element, and so does the support notice under its message (not announced twice).
  const rows = turns.map((turn) => ({
    key: String(turn.number),
    number: turn.number as number | null,
    turn: turn as Turn | null,
    live: live && live.number === turn.number ? live : null,
    busy: live !== null,
    onRetry: retry,
  }));
  if (liveIsNew) rows.push({ key: String(live.number ?? "new"), number: live.number, turn: null, live, busy: true, onRetry: () => undefined });
  // The notice from the stream's turn event, then from the session once it is read again: right
  // under the message that raised it, or after the conversation when that turn is not shown.
  const notice = newerNotice(session.support, streamed);
  const banner = notice ? <SupportBanner key={notice.turn ?? "none"} resources={notice.resources} turn={notice.turn} /> : null;
  const placed = notice !== null && rows.some((row) => row.number === notice.turn);

  return (
    <Screen title={t("chat.title")} lead={topic ? <p>{t("chat.topic", { topic })}</p> : null} ownSupportNotice>
      <TurnProgress answered={chat.answered} minTurns={study.min_turns} maxTurns={study.max_turns} />
      {turns.length === 0 && !live ? (
        <p className="empty-chat">{t("chat.empty")}</p>
      ) : (
        <ol className="messages" aria-label={t("chat.conversation")}>
          {rows.map(({ key, number, ...row }) => (
            <TurnView key={key} {...row} support={placed && number === notice?.turn ? banner : null} />
          ))}
        </ol>
      )}
      {placed ? null : banner}
      <p className="visually-hidden" role="status">
        {live ? (live.text ? t("chat.replying") : t("chat.sending")) : toAnnotate ? t("chat.received") : ""}
      </p>
      {toAnnotate ? (
        <AnnotationPanel
          turn={toAnnotate.number}
          reply={toAnnotate.reply}
          initialStep={stream.lastStep}
          onSaved={afterSave}
          focusOnShow={stream.lastStep?.turn === toAnnotate.number}
        />
      ) : null}
      <ErrorNotice error={stream.error} />
      {stream.reloadFailed ? (
        <ErrorNotice error="We could not load the latest state of the chat. What you see here is kept.">
          <button type="button" className="secondary" onClick={stream.retryReload}>
            {t("chat.loadAgain")}
          </button>
        </ErrorNotice>
      ) : null}
      <div role="status" className="saved-status">
        {saved && !live && !toAnnotate ? (
          <p className="notice notice-saved">
            <span aria-hidden="true">✓ </span>
            {t("chat.answersSaved")}
            {chat.can_send ? t("chat.writeNext") : ""}
          </p>
        ) : null}
      </div>
      {chat.can_send || !chat.can_finish ? (
        <Composer
          turns={turns}
          maxChars={study.message_max_chars}
          enabled={reason === null && outbox.waiting === null}
          reason={reason}
          waiting={outbox.waiting !== null}
          delivered={outbox.delivered}
          onSend={send}
        />
      ) : null}
      {chat.can_finish && !live ? <FinishChat atLimit={!chat.can_send} /> : null}
    </Screen>
  );
}
