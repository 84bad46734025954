// The shape every catalog has: sections of keys, each a string. Languages differ in plural
// forms (Arabic has six, English two), so the exact keys are checked by catalogs.test.ts, not
// by the type.
export type Messages = Record<string, Record<string, string>>;
