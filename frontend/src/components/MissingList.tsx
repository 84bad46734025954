// "Still to answer": the questions a submit found unanswered, each a link that moves the focus
// to the question (the error-summary pattern: it works with a keyboard and a screen reader).
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

export interface Missing {
  targetId: string;
  label: string;
}

interface MissingListProps {
  items: Missing[];
  /** Changes with every submit attempt: the list takes the focus then, not on every render. */
  attempt: number;
  title?: string;
}

export function MissingList({ items, attempt, title }: MissingListProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const focusedAttempt = useRef(0);
  const hasItems = items.length > 0;
  useEffect(() => {
    // Only a new attempt moves the focus, not a re-render while the participant answers; the
    // effect runs once the list (and each field's aria-invalid) is on the page.
    if (!attempt || !hasItems || focusedAttempt.current === attempt) return;
    focusedAttempt.current = attempt;
    box.current?.focus();
  }, [attempt, hasItems]);
  if (!items.length) return null;
  const go = (id: string) => {
    const target = document.getElementById(id);
    target?.scrollIntoView({ block: "center" });
    target?.focus();
  };
  return (
    <div className="notice notice-error" role="alert" tabIndex={-1} ref={box}>
      <p>{title ?? t("common.missingTitle")}</p>
      <ul>
        {items.map((item) => (
          <li key={item.targetId}>
            <a
              href={`#${item.targetId}`}
              onClick={(event) => {
                event.preventDefault();
                go(item.targetId);
              }}
            >
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
