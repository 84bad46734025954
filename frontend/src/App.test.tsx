import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "./App";
import { loadStoredSession } from "./session/storage";
import { errorResponse, FakeServer, json } from "./test/fakeServer";
import { instrument, session } from "./test/fixtures";

const CONFIG = { slug: "test-study", apiBase: "/api/study/" };
const LINK = "?PROLIFIC_PID=PID42&STUDY_ID=S7&SESSION_ID=X9";

describe("App", () => {
  let server: FakeServer;
  beforeEach(() => {
    server = new FakeServer()
      .on("GET", "/api/study/instrument", instrument)
      .on("GET", "/api/study/drafts", [])
      .on("GET", "/api/study/session", session({ step: "consent", chat: null, conversation: null }));
    vi.stubGlobal("fetch", server.fetch);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("starts with the Prolific ids of the study link and shows the step the server names", async () => {
    server.on("POST", "/api/study/test-study/start", () =>
      json({ token: "tok-1", session: session({ step: "consent", chat: null, conversation: null }) }, 201),
    );
    render(<App config={CONFIG} search={LINK} hash="" />);
    await userEvent.click(await screen.findByRole("button", { name: "Start" }));
    expect(await screen.findByRole("heading", { name: "Information and consent" })).toBeInTheDocument();
    expect(server.calls("POST", "/api/study/test-study/start")[0]?.body).toEqual({
      prolific_pid: "PID42",
      study_id: "S7",
      session_id: "X9",
      language: "en", // jsdom's browser language; the server records it if the study enables it
    });
    expect(server.calls("GET", "/api/study/instrument")[0]?.headers.get("Authorization")).toBe("Participant tok-1");
    expect(loadStoredSession("test-study")).toMatchObject({ token: "tok-1", prolificPid: "PID42" });
  });

  it("resumes after a reload from the token kept in this tab", async () => {
    window.sessionStorage.setItem(
      "attune:session:test-study",
      JSON.stringify({ token: "tok-2", prolificPid: "PID42", studyId: "", sessionId: "" }),
    );
    render(<App config={CONFIG} search={LINK} hash="" />);
    expect(await screen.findByRole("heading", { name: "Information and consent" })).toBeInTheDocument();
    expect(server.calls("GET", "/api/study/session")[0]?.headers.get("Authorization")).toBe("Participant tok-2");
  });

  it("keeps what is typed in localStorage once typing pauses or the page is hidden, not per keystroke", async () => {
    window.sessionStorage.setItem(
      "attune:session:test-study",
      JSON.stringify({ token: "tok-3", prolificPid: "PID42", studyId: "", sessionId: "" }),
    );
    server.on("GET", "/api/study/session", session()).on("PUT", "/api/study/drafts/message", () => json({}));
    render(<App config={CONFIG} search={LINK} hash="" />);
    await userEvent.type(await screen.findByLabelText("Your message"), "Hello");
    const stored = () => window.localStorage.getItem("attune:draft:test-study:PID42:message");
    expect(stored()).toBeNull(); // five keystrokes, no write yet
    window.dispatchEvent(new Event("pagehide"));
    expect(JSON.parse(stored() ?? "null")).toMatchObject({ value: { text: "Hello" } });
  });

  it("goes back to the landing page when the stored token no longer works", async () => {
    window.sessionStorage.setItem(
      "attune:session:test-study",
      JSON.stringify({ token: "revoked", prolificPid: "PID42", studyId: "", sessionId: "" }),
    );
    server.on("GET", "/api/study/session", () => errorResponse(401, "unauthenticated", "This study session is not valid."));
    render(<App config={CONFIG} search={LINK} hash="" />);
    expect(await screen.findByRole("button", { name: "Start" })).toBeInTheDocument();
    expect(loadStoredSession("test-study")).toBeNull();
  });

  it("opens a researcher's preview from the token in the URL fragment, then drops it from the address", async () => {
    const replace = vi.spyOn(window.history, "replaceState");
    render(<App config={CONFIG} search="" hash={`#token=${"p".repeat(43)}`} />);
    expect(await screen.findByRole("heading", { name: "Information and consent" })).toBeInTheDocument();
    expect(server.calls("GET", "/api/study/session")[0]?.headers.get("Authorization")).toBe(`Participant ${"p".repeat(43)}`);
    expect(replace).toHaveBeenCalled();
  });

  it("shows the server's refusal at start, with the screen-out code of a full study", async () => {
    server.on("POST", "/api/study/test-study/start", () =>
      errorResponse(403, "study_full", "This study has all the participants it needs.", null, { screenout_code: "FULL1" }),
    );
    render(<App config={CONFIG} search={LINK} hash="" />);
    await userEvent.click(await screen.findByRole("button", { name: "Start" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This study has all the participants it needs. Your code: FULL1");
  });
});
