// Every language a study can enable has every key of the English catalog, each plural in
// every form its language needs (Intl.PluralRules: Arabic six, Spanish three, German two), with the same
// placeholders, so no participant meets an English fallback or a raw key mid-study.
import { describe, expect, it } from "vitest";
import { APP_LANGUAGES } from "./languages";
import { resources } from "./index";
import type { Messages } from "./types";

const PLURAL = /_(zero|one|two|few|many|other)$/;

function flat(catalog: Messages): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [section, entries] of Object.entries(catalog)) {
    for (const [key, text] of Object.entries(entries)) keys.set(`${section}.${key}`, text);
  }
  return keys;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

/** What `language` must have: each English key, a plural key in each of its forms. */
function requiredKeys(language: string, english: Map<string, string>): Map<string, string> {
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const required = new Map<string, string>();
  for (const key of english.keys()) {
    if (!PLURAL.test(key)) required.set(key, key);
    else for (const form of forms) required.set(key.replace(PLURAL, `_${form}`), key);
  }
  return required;
}

/** The keys `catalog` lacks, and those whose placeholders differ from English's. */
export function catalogProblems(language: string, catalog: Messages): { missing: string[]; placeholders: string[] } {
  const english = flat(resources.en.translation);
  const own = flat(catalog);
  const missing: string[] = [];
  const mismatched: string[] = [];
  for (const [key, source] of requiredKeys(language, english)) {
    const text = own.get(key);
    if (text === undefined || !text.trim()) missing.push(key);
    // A plural form may leave the number out ("one second"); it uses no other placeholder.
    else if (!PLURAL.test(key) && placeholders(text).join() !== placeholders(english.get(source) ?? "").join()) mismatched.push(key);
  }
  return { missing, placeholders: mismatched };
}

describe("the message catalogs", () => {
  it.each(APP_LANGUAGES.map((language) => [language]))("%s has every key, plural form and placeholder", (language) => {
    expect(catalogProblems(language, resources[language].translation)).toEqual({ missing: [], placeholders: [] });
  });

  it("catches a key missing in a language, and a plural form its language needs", () => {
    const { chat, ...rest } = resources.ar.translation as Messages;
    const withoutSend = { ...rest, chat: Object.fromEntries(Object.entries(chat ?? {}).filter(([k]) => k !== "send" && k !== "progressReached_few")) };
    expect(catalogProblems("ar", withoutSend).missing).toEqual(["chat.send", "chat.progressReached_few"]);
  });

  it("catches a placeholder lost in translation", () => {
    const es = resources.es.translation as Messages;
    const broken = { ...es, chat: { ...es.chat, topic: "Tema" } };
    expect(catalogProblems("es", broken).placeholders).toEqual(["chat.topic"]);
  });
});
