// The study's support resources, shown prominently once the backend has flagged a risk in the
// conversation (the chat goes on; the participant decides).
// The withdraw button is named only where the page has one (not on the final pages).
export function SupportNotice({ resources, canWithdraw = true }: { resources: string; canWithdraw?: boolean }) {
  return (
    <section className="support" aria-labelledby="support-title">
      <h2 id="support-title">Support is available</h2>
      <p className="support-text">{resources}</p>
      {canWithdraw ? (
        <p>You can stop at any time, and you can withdraw from the study with the button at the bottom of the page.</p>
      ) : null}
    </section>
  );
}
