// A researcher's preview link carries a session token in the URL fragment
// (`/s/<slug>/#token=...`, made by the admin): a fragment never reaches a server or a log.
// The app takes it once and removes it from the address bar, so it is not bookmarked or shared.
export function tokenFromFragment(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, "")).get("token");
  return token && /^[A-Za-z0-9_-]{16,128}$/.test(token) ? token : null;
}

/** Stands in for the Prolific ID of a preview (it has none): each preview keeps its own drafts. */
export function previewPid(token: string): string {
  return `preview-${token.slice(0, 12)}`;
}
