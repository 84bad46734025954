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
    // Two cores shared by many processes: user-event typing can take seconds under load.
    testTimeout: 30000,
  },
});
