// The app's one i18next instance: catalogs bundled (no loading flash, works offline), the
// language set from the study link, the browser or the study (languages.ts), and the page's
// <html lang dir> kept in step with it (screen readers and the layout's direction follow).
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { directionOf } from "./languages";
import ar from "./locales/ar";
import de from "./locales/de";
import en from "./locales/en";
import es from "./locales/es";

export const resources = {
  en: { translation: en },
  es: { translation: es },
  ar: { translation: ar },
  de: { translation: de },
} as const;

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: "en",
  // A missing key shows English rather than its name; catalogs.test.ts keeps this from happening.
  fallbackLng: "en",
  initAsync: false,
  // React escapes what it renders; escaping here would show "&amp;" to participants.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
});

/** Set the <html> element's lang and dir. */
export function applyDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
}

// Whoever switches the language, the page follows at once (before any await of the caller).
i18n.on("languageChanged", applyDocumentLanguage);

/** Switch the app and the page to `language`. */
export async function switchLanguage(language: string): Promise<void> {
  applyDocumentLanguage(language);
  if (i18n.language !== language) await i18n.changeLanguage(language);
}
