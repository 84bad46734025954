// The page's configuration, read from data attributes of the mount element that Django
// renders (annotations/participant_web/): the CSP forbids inline scripts, so no JS globals.
export interface AppConfig {
  slug: string;
  apiBase: string;
  /** The study's enabled languages (empty: not given; the app's catalogs count). */
  languages?: string[];
  /** The study's default language: what a participant gets when neither the link nor the
   * browser names an enabled one. */
  defaultLanguage?: string;
}

export function readConfig(element: HTMLElement): AppConfig {
  const slug = element.dataset.studySlug ?? "";
  const apiBase = element.dataset.apiBase ?? "/api/study/";
  if (!slug) throw new Error("The page has no study slug (data-study-slug).");
  const languages = (element.dataset.languages ?? "").split(/\s+/).filter(Boolean);
  const defaultLanguage = element.dataset.defaultLanguage || languages[0] || "en";
  return { slug, apiBase, languages, defaultLanguage };
}
