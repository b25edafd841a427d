/**
 * One browser-host rig for an e2e file, nothing faked: a private copy of the build, Chromium, the loopback model
 * server, the web host with real workers on a fresh data folder (integrity-checked, pointed at the loopback server).
 * `close()` stops and removes all of it, whatever part got started; it never throws for a part that is missing.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium } from "./launch-chromium";
import { startOpenAIServer, type OpenAIServerOptions, type OpenAITestServer } from "../src/web-host/openai-test-server";
import { privateBuildCopy, startWebHostProcess, type WebHostProcess } from "./web-host-process";
import { SCREENS } from "./chat-page";

export interface E2eRig {
  browser: Browser;
  server: OpenAITestServer;
  host: WebHostProcess;
  dataDir: string;
  /** Stops the web host and starts it again on the same data folder and build (an app restart); `host` is the new one. */
  restartHost(): Promise<WebHostProcess>;
  close(): Promise<void>;
}

/**
 * Starts the rig; `name` goes into the data folder's name, `env` into the web host's environment (e.g. HOME or
 * `PI_CODING_AGENT_DIR`), `hostArgs` to the web host's command line (after the rig's own). If a part fails to start,
 * what started is removed.
 */
export async function startE2eRig(
  name: string,
  serverOptions?: OpenAIServerOptions,
  env?: NodeJS.ProcessEnv,
  hostArgs: string[] = [],
): Promise<E2eRig> {
  mkdirSync(SCREENS, { recursive: true });
  const build = privateBuildCopy();
  let browser: Browser | undefined;
  let server: OpenAITestServer | undefined;
  let host: WebHostProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), `paddock-e2e-${name}-`));
  const close = async () => {
    await host?.stop();
    await server?.close();
    await browser?.close();
    build.remove();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    browser = await launchChromium();
    server = await startOpenAIServer(serverOptions);
    const args = ["--build-dir", build.dir, "--integrity-check", "--data-dir", dataDir, "--loopback-url", server.baseUrl, ...hostArgs];
    host = await startWebHostProcess(args, env);
    const rig: E2eRig = {
      browser, server, host, dataDir, close,
      restartHost: async () => {
        await host?.stop();
        host = undefined;
        host = await startWebHostProcess(args, env);
        rig.host = host;
        return host;
      },
    };
    return rig;
  } catch (error) {
    await close();
    throw error;
  }
}
