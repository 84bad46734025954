// The error reporter (issue 39, item 5): four bounded fields, once per distinct error per page
// load, and never what the participant typed; the error boundary reports what it catches.
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiClient } from "../api/client";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { FakeServer } from "../test/fakeServer";
import { buildId, errorReporter, ErrorReporter, typedValues, type ReportSender } from "./report";

const sender = () => vi.fn<ReportSender>(async () => undefined);

describe("ErrorReporter", () => {
  it("sends the message, stack, screen and build, cut to the server's bounds, and nothing else", () => {
    const send = sender();
    const reporter = new ErrorReporter("main-abc123.js", () => []);
    reporter.connect(send);
    const error = new RangeError("x".repeat(600));
    error.stack = "at f (app.js:1:1)\n".repeat(1000);
    reporter.report(error, "chat");
    const [report] = send.mock.calls[0] ?? [];
    expect(Object.keys(report ?? {}).sort()).toEqual(["build", "message", "screen", "stack"]);
    expect(report?.message).toHaveLength(500);
    expect(report?.message.startsWith("RangeError: xxx")).toBe(true);
    expect(report?.stack).toHaveLength(8000);
    expect(report).toMatchObject({ screen: "chat", build: "main-abc123.js" });
  });

  it("sends each distinct error once per page load", () => {
    const send = sender();
    const reporter = new ErrorReporter("b", () => []);
    reporter.connect(send);
    const again = () => new TypeError("a is undefined");
    reporter.report(again(), "chat");
    reporter.report(again(), "chat");
    reporter.report(new TypeError("b is undefined"), "chat");
    expect(send).toHaveBeenCalledTimes(2);
  });

  it("never sends what the participant typed, even when the error quotes it", () => {
    render(
      <form>
        <textarea aria-label="Your message" defaultValue="my boss shouts at me every day" />
        <input aria-label="Age" defaultValue="34" />
      </form>,
    );
    const send = sender();
    const reporter = new ErrorReporter("b");
    reporter.connect(send);
    const error = new SyntaxError('Unexpected token in "my boss shouts at me every day"');
    error.stack = 'SyntaxError: in "my boss shouts at me every day"\n at parse (app.js:2:3)';
    reporter.report(error, "chat");
    const body = JSON.stringify(send.mock.calls[0]?.[0]);
    expect(body).not.toContain("my boss shouts");
    expect(body).toContain("[typed text]");
    expect(typedValues()).toEqual(["my boss shouts at me every day"]); // "34" is too short to cut
  });

  it("posts to the study's client-errors endpoint with the participant's token", async () => {
    const server = new FakeServer().on("POST", "/api/study/my-study/client-errors", () => new Response(null, { status: 204 }));
    const client = new ApiClient("/api/study/", server.fetch);
    client.authorize("tok");
    await client.reportClientError("my-study", { message: "E", stack: "", screen: "chat", build: "b" });
    const [call] = server.calls("POST", "/api/study/my-study/client-errors");
    expect(call?.body).toEqual({ message: "E", stack: "", screen: "chat", build: "b" });
    expect(call?.headers.get("Authorization")).toBe("Participant tok");
  });

  it("names the build by the bundle's file name", () => {
    expect(buildId("https://study.example/static/participant-app/main-Ab12Cd.js?v=1")).toBe("main-Ab12Cd.js");
  });
});

describe("ErrorBoundary", () => {
  it("reports what it catches with the screen it was on", () => {
    const send = sender();
    errorReporter.connect(send);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    function Broken(): never {
      throw new TypeError("turn.reply is undefined");
    }
    render(
      <ErrorBoundary screen="post_survey">
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole("heading", { name: "Something went wrong on this page" })).toBeInTheDocument();
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ message: "TypeError: turn.reply is undefined", screen: "post_survey" }));
    errorReporter.connect(null);
  });
});
