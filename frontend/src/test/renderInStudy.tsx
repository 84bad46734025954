// Renders a component inside a started session: a real ApiClient on a FakeServer, a real
// DraftStore on jsdom's localStorage, and the given session and instrument.
import { render } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { vi } from "vitest";
import { ApiClient } from "../api/client";
import type { Instrument, Session } from "../api/types";
import { DraftStore } from "../drafts/store";
import { StudyContext, useStudyValue, type StudyContextValue } from "../StudyContext";
import { FakeServer } from "./fakeServer";
import { instrument as defaultInstrument, session as defaultSession } from "./fixtures";

export const API = "/api/study/";
export const TOKEN = "token-123";

export interface StudyHarness {
  server: FakeServer;
  client: ApiClient;
  drafts: DraftStore;
  context: StudyContextValue;
}

// Every harness's draft store of the running test: its pending localStorage writes are made at
// once when the test ends (closeHarnesses), before the storage is cleared for the next test; a
// write left on its timer landed in the next test's storage (same namespace) and failed it.
const openStores = new Set<DraftStore>();

export function closeHarnesses(): void {
  for (const store of openStores) store.flushLocal();
  openStores.clear();
}

export function makeHarness(options: { session?: Session; instrument?: Instrument; server?: FakeServer } = {}): StudyHarness {
  const server = options.server ?? new FakeServer();
  const client = new ApiClient(API, server.fetch);
  client.authorize(TOKEN);
  const drafts = new DraftStore("test-study:PID1", window.localStorage, {
    save: (key, data, keepalive) => client.saveDraft(key, data, keepalive),
    remove: (key) => client.deleteDraft(key),
    list: () => client.drafts(),
  });
  openStores.add(drafts);
  const context: StudyContextValue = {
    client,
    drafts,
    instrument: options.instrument ?? defaultInstrument,
    session: options.session ?? defaultSession(),
    setSession: vi.fn(),
    mergeTurn: vi.fn(),
    refresh: vi.fn(async () => undefined),
    signOut: vi.fn(),
  };
  return { server, client, drafts, context };
}

export function renderInStudy(ui: ReactElement, harness: StudyHarness) {
  const result = render(<StudyContext.Provider value={harness.context}>{ui}</StudyContext.Provider>);
  return {
    ...result,
    rerenderInStudy: (next: ReactElement) =>
      result.rerender(<StudyContext.Provider value={harness.context}>{next}</StudyContext.Provider>),
  };
}

/** The session kept by the app's real store (useServerSession), read through the harness's
 * client: for tests of what the server's answers do to the screen. */
function LiveStudy({ harness, children }: { harness: StudyHarness; children: ReactNode }) {
  const value = useStudyValue({
    client: harness.client,
    drafts: harness.drafts,
    instrument: harness.context.instrument,
    initialSession: harness.context.session,
    signOut: harness.context.signOut,
  });
  return <StudyContext.Provider value={value}>{children}</StudyContext.Provider>;
}

export function renderWithServerSession(ui: ReactElement, harness: StudyHarness) {
  return render(<LiveStudy harness={harness}>{ui}</LiveStudy>);
}
