// The study's support resources, shown prominently once the backend has flagged a risk in the
// conversation (the chat goes on; the participant decides).
// The withdraw button is named only where the page has one (not on the final pages).
import { useTranslation } from "react-i18next";
export function SupportNotice({ resources, canWithdraw = true }: { resources: string; canWithdraw?: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="support" aria-labelledby="support-title">
      <h2 id="support-title">{t("support.title")}</h2>
      <p className="support-text">{resources}</p>
      {canWithdraw ? (
        <p>{t("support.canWithdraw")}</p>
      ) : null}
    </section>
  );
}
