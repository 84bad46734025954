// Where to find help, on every page (a participant may be distressed at any step).
import { useTranslation } from "react-i18next";
export function HelpAndSupport({ resources }: { resources: string }) {
  const { t } = useTranslation();
  if (!resources) return null;
  return (
    <details className="help">
      <summary>{t("support.help")}</summary>
      <p className="support-text">{resources}</p>
    </details>
  );
}
