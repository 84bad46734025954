// Builds the participant app into dist/ for Django's static files (STATICFILES_DIRS picks up
// frontend/dist when it exists). There is no index.html: Django renders the page itself
// (annotations/participant_web/) from dist/.vite/manifest.json, so the study's slug and the
// API base travel as data attributes and the CSP (script-src 'self') needs no inline script.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  // Relative URLs: the bundle works under whatever STATIC_URL Django is configured with.
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    assetsDir: "participant-app",
    target: "es2022",
    rolldownOptions: {
      input: "src/main.tsx",
    },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    restoreMocks: true,
    unstubGlobals: true,
    // One jsdom per worker, not per file: 10.6 s against 41.5 s for the suite, side by side on
    // the same host (2026-12-07). src/test/setup.ts resets what a test may leave behind (the
    // DOM, storage, the language, timers and globals are restored by each file): the suite
    // passes in four shuffled orders (vitest run --sequence.shuffle --sequence.seed=1..4).
    isolate: false,
    // Two cores shared by many processes: user-event typing can take seconds under load.
    testTimeout: 30000,
  },
});
