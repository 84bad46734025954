// Where to find help, on every page (a participant may be distressed at any step).
export function HelpAndSupport({ resources }: { resources: string }) {
  if (!resources) return null;
  return (
    <details className="help">
      <summary>Help and support</summary>
      <p className="support-text">{resources}</p>
    </details>
  );
}
