// Vitest: jest-dom's matchers, and a clean DOM and storage between tests.
import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// findBy*/waitFor give up after 1 s by default. On a busy two-core machine a screen that loads
// its data through the fake server has taken longer (the Chat axe test failed with "not found"
// and passed alone); 5 s keeps the tests about behaviour, not about the machine's load.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
