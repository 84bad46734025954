// Vitest: jest-dom's matchers, and a clean DOM and storage between tests.
import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";
import { i18n } from "../i18n";
import { closeHarnesses } from "./renderInStudy";

// findBy*/waitFor give up after 1 s by default. On a busy two-core machine a screen that loads
// its data through the fake server has taken longer (the Chat axe test failed with "not found"
// and passed alone); 5 s keeps the tests about behaviour, not about the machine's load.
configure({ asyncUtilTimeout: 5000 });

afterEach(async () => {
  cleanup();
  closeHarnesses(); // before the storage is cleared: no draft write is left on a timer
  // A test that switched the language leaves the next one in English.
  if (i18n.language !== "en") await i18n.changeLanguage("en");
  window.localStorage.clear();
  window.sessionStorage.clear();
});
