// axe-core on a rendered screen's markup (jsdom). Two rules cannot judge a component outside
// the page: colour contrast (jsdom computes no styles; the browser test measures it) and
// "region" (the app's header/main/footer landmarks wrap every screen in the real page).
import axe from "axe-core";
import { expect } from "vitest";

export async function expectNoAxeViolations(container: Element): Promise<void> {
  const result = await axe.run(container, {
    rules: { "color-contrast": { enabled: false }, region: { enabled: false } },
    resultTypes: ["violations"],
  });
  const found = result.violations.map((v) => `${v.id} (${v.impact ?? "?"}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(found).toEqual([]);
}
