// The languages the participant app has catalogs for, and how a participant's language is
// chosen: the study link's `lang` parameter, then the browser's languages, then the study's
// default; only languages the study enables count.

/** Languages with a catalog in locales/ (add a catalog, then its code here). */
export const APP_LANGUAGES = ["en", "es", "ar", "de"] as const;
export type AppLanguage = (typeof APP_LANGUAGES)[number];

// Scripts written right to left (the page's `dir`); codes of languages we may add later too.
const RTL = new Set(["ar", "fa", "he", "ur", "ps", "yi"]);

/** "es-MX" -> "es": catalogs and studies are per language, not per region. */
export function baseLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
}

export function directionOf(language: string): "rtl" | "ltr" {
  return RTL.has(baseLanguage(language)) ? "rtl" : "ltr";
}

export interface LanguageChoice {
  /** The `lang` parameter of the study link, if any. */
  requested: string | null;
  /** navigator.languages, most preferred first. */
  browser: readonly string[];
  /** The study's enabled languages (empty: the page did not say; every catalog counts). */
  enabled: readonly string[];
  fallback: string;
}

export function chooseLanguage({ requested, browser, enabled, fallback }: LanguageChoice): string {
  const allowed = enabled.length ? enabled : APP_LANGUAGES;
  const pick = (tag: string | null) => {
    const base = tag ? baseLanguage(tag) : "";
    return allowed.includes(base) ? base : null;
  };
  return pick(requested) ?? browser.map(pick).find((code) => code !== null) ?? fallback;
}

/** The study link's `lang` parameter (`?lang=es`), or null. */
export function requestedLanguage(search: string): string | null {
  return new URLSearchParams(search).get("lang");
}
