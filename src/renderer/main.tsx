/**
 * The page's entry: Electron's preload exposes `window.paddock`; without it this is the browser host's page.
 */
import { createRoot } from "react-dom/client";
import type { PaddockBridge } from "../shared/protocol/desktop-bridge";
import { App } from "./app/App";
import type { AppServices } from "./services/app-services";
import { createElectronServices } from "./services/electron-services";
import { createWebServices } from "./services/web-services";
import { errorText } from "../shared/error-text";

const root = createRoot(document.getElementById("root")!);
const bridge = (window as Window & { paddock?: PaddockBridge }).paddock;
let services: AppServices | undefined;
try {
  services = bridge ? createElectronServices(bridge, window.location) : createWebServices(window.location);
} catch (error) {
  root.render(
    <main className="center-screen">
      <div className="notice notice-error" role="alert">{errorText(error)}</div>
    </main>,
  );
}
if (services) root.render(<App services={services} />);
