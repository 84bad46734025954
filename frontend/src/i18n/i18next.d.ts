// Typed keys: t("chat.sned") is a compile error, and the English catalog is the key list.
import "i18next";
import type en from "./locales/en";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: typeof en };
  }
}
