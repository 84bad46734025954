// The annotation step of a turn, kept fresh while its second reply is being written: polled
// every few seconds until the comparison is ready (or skipped), never blocking the panel.
// Answers are ordered by when they were asked for (a slow "pending" never replaces a newer
// "ready"), and every request still running is aborted when the panel goes away.
import { useCallback, useEffect, useRef, useState } from "react";
import type { AnnotationStep } from "../api/types";
import { RequestGate } from "../session/requestGate";
import { useStudy } from "../StudyContext";

export const POLL_MS = 2500;

export function useAnnotationStep(turn: number, initial: AnnotationStep | null) {
  const { client } = useStudy();
  const [step, setStep] = useState<AnnotationStep | null>(initial && initial.turn === turn ? initial : null);
  const [failed, setFailed] = useState(false);
  const [gate] = useState(() => new RequestGate());
  const mounted = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    mounted.current = controller;
    return () => controller.abort();
  }, []);

  const load = useCallback(
    (signal: AbortSignal): Promise<void> => {
      const ticket = gate.issue();
      return client.annotationStep(turn, signal).then(
        (next) => {
          if (!gate.accept(ticket)) return;
          setStep(next);
          setFailed(false);
        },
        () => {
          // Offline for a moment: the next poll (or the retry button) tries again.
          if (!signal.aborted) setFailed(true);
        },
      );
    },
    [client, turn, gate],
  );

  const missing = step === null;
  useEffect(() => {
    if (!missing) return;
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [missing, load]);

  const pending = step?.comparison.status === "pending";
  useEffect(() => {
    if (!pending && !failed) return;
    const controller = new AbortController();
    const timer = setInterval(() => void load(controller.signal), POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [pending, failed, load]);

  /** Ask again now (the retry button, or after the server refused a submit). */
  const reload = useCallback(() => load(mounted.current?.signal ?? new AbortController().signal), [load]);

  return { step, failed, reload };
}
