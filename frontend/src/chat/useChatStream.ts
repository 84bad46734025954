// Sends a message (or retries a failed reply) and follows the reply's stream. While it runs,
// `live` holds the reply as it arrives; whatever the ending, the session is read again so the
// server's record (done, failed, or still streaming) decides what is shown next.
import { useCallback, useState } from "react";
import { ApiError } from "../api/client";
import { followChatStream } from "../api/chatStream";
import type { AnnotationStep, Turn } from "../api/types";
import { useStudy } from "../StudyContext";

export interface LiveTurn {
  number: number | null; // null until the server has stored the message
  userMessage: string;
  text: string;
}

const CUT_MESSAGE = "The connection was lost while the reply was being written. Your message is saved.";

export function useChatStream(onSupport: (resources: string) => void) {
  const { client, refresh, signOut } = useStudy();
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [lastStep, setLastStep] = useState<AnnotationStep | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const follow = useCallback(
    async (open: () => Promise<Response>, userMessage: string, number: number | null, onStored?: () => void) => {
      setLive({ number, userMessage, text: "" });
      setError(null);
      try {
        const outcome = await followChatStream(await open(), {
          onTurn: (turn, support) => {
            onStored?.();
            setLive((current) => current && { ...current, number: turn.number });
            if (support) onSupport(support.resources);
          },
          onDelta: (text) => setLive((current) => current && { ...current, text: current.text + text }),
        });
        if (outcome.kind === "done") setLastStep(outcome.annotation);
        if (outcome.kind === "cut") setError(new ApiError(0, "cut", CUT_MESSAGE));
      } catch (caught) {
        const apiError = caught instanceof ApiError ? caught : new ApiError(0, "internal", "Something went wrong. Please try again.");
        if (apiError.code === "unauthenticated") signOut(apiError.message);
        setError(apiError);
      } finally {
        await refresh().catch(() => undefined);
        setLive(null);
      }
    },
    [onSupport, refresh, signOut],
  );

  const send = useCallback(
    (text: string, key: string, onStored: () => void) => follow(() => client.sendMessage(text, key), text, null, onStored),
    [client, follow],
  );
  const retry = useCallback(
    (turn: Turn) => follow(() => client.retryTurn(turn.number), turn.user_message, turn.number),
    [client, follow],
  );
  return { live, lastStep, error, send, retry };
}
