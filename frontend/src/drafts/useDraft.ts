// A piece of React state that is also a draft: every change is persisted once typing pauses
// (see store.ts: localStorage after 500 ms, the server after 800 ms, both at once on pagehide), and
// the initial value is whatever was saved before a reload.
import { useCallback, useRef, useState } from "react";
import { useStudy } from "../StudyContext";

type Update<T> = (next: T | ((previous: T) => T)) => void;

export function useDraft<T>(key: string, initial: () => T): [T, Update<T>, () => void] {
  const { drafts } = useStudy();
  const [value, setValue] = useState<T>(() => drafts.read<T>(key) ?? initial());
  // The latest value, outside React's queue: the store is written here, never inside a state
  // updater (React may run those twice, or after a clear() that should have won).
  const latest = useRef(value);
  // The first render's factory: what a cleared draft starts from again.
  const [makeInitial] = useState(() => initial);

  const update = useCallback<Update<T>>(
    (next) => {
      const resolved = typeof next === "function" ? (next as (p: T) => T)(latest.current) : next;
      latest.current = resolved;
      drafts.write(key, resolved);
      setValue(resolved);
    },
    [drafts, key],
  );
  // After a submit: forget the draft and start empty again (without saving the empty value).
  const clear = useCallback(() => {
    drafts.clear(key);
    latest.current = makeInitial();
    setValue(latest.current);
  }, [drafts, key, makeInitial]);
  return [value, update, clear];
}
