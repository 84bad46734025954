// A fresh random key per message: resending the same key (a double tap, a retry after a lost
// connection) returns the turn already stored instead of a second copy. getRandomValues works
// on plain-HTTP pages too, unlike crypto.randomUUID.
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
