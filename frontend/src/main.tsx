// Entry point: mount the app on the element Django rendered, with its data attributes.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { readConfig } from "./config";
import "./styles.css";

const element = document.getElementById("attune-app");
if (element) {
  createRoot(element).render(
    <StrictMode>
      <ErrorBoundary>
        <App config={readConfig(element)} />
      </ErrorBoundary>
    </StrictMode>,
  );
}
