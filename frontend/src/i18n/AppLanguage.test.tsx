// The app speaks the participant's language: before the session from the study link (or the
// browser), then the language the server recorded; the page's lang and dir follow.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../App";
import { FakeServer, json } from "../test/fakeServer";
import { instrument, session } from "../test/fixtures";

const CONFIG = { slug: "test-study", apiBase: "/api/study/", languages: ["en", "es", "ar"], defaultLanguage: "en" };

describe("the app's language", () => {
  let server: FakeServer;
  beforeEach(() => {
    server = new FakeServer().on("GET", "/api/study/instrument", instrument).on("GET", "/api/study/drafts", []);
    vi.stubGlobal("fetch", server.fetch);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.documentElement.lang = "en";
    document.documentElement.dir = "ltr";
  });

  it("shows the landing page in the link's language, right to left for Arabic, and asks the server for it", async () => {
    const consent = session({ step: "consent", chat: null, conversation: null, language: "ar" });
    server.on("POST", "/api/study/test-study/start", () => json({ token: "t", session: consent }, 201));
    render(<App config={CONFIG} search="?PROLIFIC_PID=PID42&lang=ar" hash="" />);
    expect(screen.getByRole("heading", { name: "مرحبًا بك" })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute("lang", "ar");
    expect(document.documentElement).toHaveAttribute("dir", "rtl");
    await userEvent.click(screen.getByRole("button", { name: "ابدأ" }));
    expect(await screen.findByRole("heading", { name: "المعلومات والموافقة" })).toBeInTheDocument();
    expect(server.calls("POST", "/api/study/test-study/start")[0]?.body).toMatchObject({ language: "ar" });
  });

  it("follows the language the server recorded when it differs from the link's", async () => {
    server.on("GET", "/api/study/session", session({ step: "consent", chat: null, conversation: null, language: "es" }));
    window.sessionStorage.setItem("attune:session:test-study", JSON.stringify({ token: "t", prolificPid: "PID42", studyId: "", sessionId: "" }));
    render(<App config={CONFIG} search="?PROLIFIC_PID=PID42&lang=en" hash="" />);
    expect(await screen.findByRole("heading", { name: "Información y consentimiento" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Acepto participar" })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute("lang", "es");
    expect(document.documentElement).toHaveAttribute("dir", "ltr");
  });

  it("formats numbers and plurals by language", async () => {
    const { i18n } = await import("./index");
    await i18n.changeLanguage("es");
    expect(i18n.t("exit.countdown", { count: 1 })).toBe("Volverás a Prolific en 1 segundo.");
    expect(i18n.t("chat.characters", { length: 1234, max: 4000 })).toBe("1234 / 4000 caracteres");
    await i18n.changeLanguage("ar");
    expect(i18n.t("exit.countdown", { count: 2 })).toBe("ستعود إلى Prolific خلال ثانيتين.");
    expect(i18n.t("exit.countdown", { count: 3 })).toContain("ثوانٍ");
    await i18n.changeLanguage("en");
    expect(i18n.t("chat.characters", { length: 1234, max: 4000 })).toBe("1,234 / 4,000 characters");
  });
});
