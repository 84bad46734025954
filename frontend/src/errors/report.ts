// Reports the app's unexpected errors (a bug, not a refusal of the server) to the study's
// staff: POST /api/study/<slug>/client-errors with the error's message and stack, the screen
// and the build, and nothing else. Never what the participant typed: no form value is read
// into a report, and any text of the page's fields that an error message happens to quote is
// cut out before it leaves. Each distinct error goes once per page load (a render loop must
// not send a thousand); a report that cannot be sent is dropped (it is not worth a retry).
import type { ClientErrorReport } from "../api/types";

export type ReportSender = (report: ClientErrorReport) => Promise<void>;

// The server's bounds (annotations/models/client_error.py): cut here so a report is not refused.
const MAX = { message: 500, stack: 8000, screen: 64, build: 64 } as const;
const REDACTED = "[typed text]";
const MIN_REDACTED_CHARS = 3; // shorter values ("a", "34") are everywhere in a stack

/** This build's id: the content-hashed file name of the bundle (the same for every page of
 * one build, a new one for every change), with no build step of its own. */
export function buildId(url: string = import.meta.url): string {
  const name = url.split("?")[0]?.split("/").pop() ?? "";
  return (name || "dev").slice(0, MAX.build);
}

/** Every value the page's fields hold now: what must never leave in a report. */
export function typedValues(root: ParentNode = document): string[] {
  const fields = root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea");
  return Array.from(fields, (field) => field.value).filter((value) => value.trim().length >= MIN_REDACTED_CHARS);
}

function redact(text: string, values: string[]): string {
  // Longest first: a value that contains another is cut whole.
  return [...values].sort((a, b) => b.length - a.length).reduce((out, value) => out.split(value).join(REDACTED), text);
}

function describe(error: unknown): { message: string; stack: string } {
  if (error instanceof Error) return { message: `${error.name}: ${error.message}`, stack: error.stack ?? "" };
  return { message: `Thrown: ${typeof error}`, stack: "" }; // a thrown value is not read: it may be anything
}

export class ErrorReporter {
  private readonly seen = new Set<string>();
  private sender: ReportSender | null = null;

  constructor(
    private readonly build: string = buildId(),
    private readonly values: () => string[] = () => typedValues(),
  ) {}

  /** Where reports go (set once the app knows its study and client; until then none is sent). */
  connect(sender: ReportSender | null): void {
    this.sender = sender;
  }

  report(error: unknown, screen: string): void {
    if (!this.sender) return;
    const described = describe(error);
    const values = this.values();
    const report: ClientErrorReport = {
      message: redact(described.message, values).slice(0, MAX.message) || "Error",
      stack: redact(described.stack, values).slice(0, MAX.stack),
      screen: screen.slice(0, MAX.screen),
      build: this.build,
    };
    const key = `${report.screen}\n${report.message}\n${report.stack.split("\n", 2).join("\n")}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.sender(report).catch(() => undefined);
  }
}

/** The page's one reporter (one page load, one set of errors already sent). */
export const errorReporter = new ErrorReporter();

export function reportError(error: unknown, screen: string): void {
  errorReporter.report(error, screen);
}
