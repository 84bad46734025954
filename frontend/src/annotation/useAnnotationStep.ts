// The annotation step of a turn, kept fresh while its second reply is being written: polled
// every few seconds until the comparison is ready (or skipped), never blocking the panel.
import { useCallback, useEffect, useState } from "react";
import type { AnnotationStep } from "../api/types";
import { useStudy } from "../StudyContext";

export const POLL_MS = 2500;

export function useAnnotationStep(turn: number, initial: AnnotationStep | null) {
  const { client } = useStudy();
  const [step, setStep] = useState<AnnotationStep | null>(initial && initial.turn === turn ? initial : null);
  const [failed, setFailed] = useState(false);

  const reload = useCallback(async () => {
    try {
      setStep(await client.annotationStep(turn));
      setFailed(false);
    } catch {
      setFailed(true); // offline for a moment: the next poll (or the retry button) tries again
    }
  }, [client, turn]);

  useEffect(() => {
    if (!step) void reload();
  }, [step, reload]);

  const pending = step?.comparison.status === "pending";
  useEffect(() => {
    if (!pending && !failed) return;
    const timer = setInterval(() => void reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [pending, failed, reload]);

  return { step, failed, reload };
}
