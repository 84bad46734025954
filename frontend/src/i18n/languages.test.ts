import { describe, expect, it } from "vitest";
import { chooseLanguage, directionOf, requestedLanguage } from "./languages";

describe("chooseLanguage", () => {
  const study = { enabled: ["en", "es"], fallback: "en" };

  it("takes the study link's lang parameter when the study enables it", () => {
    expect(chooseLanguage({ ...study, requested: requestedLanguage("?PROLIFIC_PID=x&lang=es"), browser: ["en-GB"] })).toBe("es");
  });

  it("takes the browser's first enabled language (its region ignored) when the link names none", () => {
    expect(chooseLanguage({ ...study, requested: null, browser: ["de-DE", "es-MX", "en"] })).toBe("es");
  });

  it("falls back to the study's default for a language the study does not enable", () => {
    expect(chooseLanguage({ enabled: ["es", "ar"], fallback: "es", requested: "fr", browser: ["de"] })).toBe("es");
  });
});

describe("directionOf", () => {
  it("writes Arabic right to left and Spanish left to right", () => {
    expect(directionOf("ar")).toBe("rtl");
    expect(directionOf("ar-EG")).toBe("rtl");
    expect(directionOf("es")).toBe("ltr");
  });
});
