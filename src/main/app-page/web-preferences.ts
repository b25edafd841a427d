/**
 * The web preferences of every Paddock window, as plain data (Electron-free, so a Node test pins them; chat-windows
 * passes them to BrowserWindow unchanged). Every security-relevant option is set explicitly, so a change of
 * Electron's defaults can never loosen them.
 */
export interface SecureWebPreferences {
  preload: string;
  /** The page's scripts and the preload's live in separate worlds; only `contextBridge` crosses. */
  contextIsolation: true;
  /** The renderer runs in Chromium's OS sandbox; the preload gets only a small, Node-less Electron API. */
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  experimentalFeatures: false;
  navigateOnDragDrop: false;
}

export function secureWebPreferences(preloadPath: string): SecureWebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
  };
}
