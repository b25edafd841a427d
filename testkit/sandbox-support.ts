/**
 * Whether tests can run bash in the real sandbox here. CI installs bubblewrap, socat and ripgrep, so on Linux under
 * CI a missing sandbox is an error (thrown at once, naming what is missing); elsewhere (a Mac, Windows, a Linux box
 * without bubblewrap) the caller skips and this says why, once per suite.
 */
import { detectSandbox, type SandboxSupport } from "../src/agent-worker/tools/workspace";

export async function sandboxForTests(what: string): Promise<SandboxSupport> {
  const support = await detectSandbox();
  if (!support.available) {
    if (process.platform === "linux" && process.env.CI) throw new Error(`The sandbox must run on CI, but: ${support.reason}`);
    console.warn(`SKIPPING ${what}: ${support.reason}`);
  }
  return support;
}
