// The page's configuration, read from data attributes of the mount element that Django
// renders (annotations/participant_web/): the CSP forbids inline scripts, so no JS globals.
export interface AppConfig {
  slug: string;
  apiBase: string;
}

export function readConfig(element: HTMLElement): AppConfig {
  const slug = element.dataset.studySlug ?? "";
  const apiBase = element.dataset.apiBase ?? "/api/study/";
  if (!slug) throw new Error("The page has no study slug (data-study-slug).");
  return { slug, apiBase };
}
