// The last net under a screen: an exception while rendering (a bug, or an answer the app did
// not expect) shows a way back instead of a blank page. Drafts live in localStorage and on the
// server, so "Try again" and "Reload the page" lose nothing that was typed. The error goes to
// the study's staff (errors/report.ts: once per distinct error, never what was typed).
import { Component, type ErrorInfo, type ReactNode } from "react";
import { reportError } from "../errors/report";
import { i18n } from "../i18n";

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Called by "Try again" before the screen is drawn again (e.g. read the session afresh). */
  onReset?: () => void;
  /** Where the app was (the session's step), for the report. */
  screen?: string;
}

interface ErrorBoundaryState {
  error: unknown;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("The participant app hit an error while rendering", error, info.componentStack);
    reportError(error, this.props.screen ?? "app");
  }

  private reset = () => {
    this.props.onReset?.();
    this.setState({ error: null });
  };

  render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return (
      <section className="screen" aria-labelledby="crash-title">
        <h1 id="crash-title" tabIndex={-1} ref={(heading) => heading?.focus()}>
          {i18n.t("errors.crashTitle")}
        </h1>
        <div className="notice notice-error" role="alert">
          <p>{i18n.t("errors.crashBody")}</p>
        </div>
        <div className="actions">
          <button type="button" className="primary" onClick={this.reset}>
            {i18n.t("app.tryAgain")}
          </button>
          <button type="button" className="secondary" onClick={() => window.location.reload()}>
            {i18n.t("errors.reload")}
          </button>
        </div>
      </section>
    );
  }
}
