/**
 * What `npm run test:electron` does where the Electron binary cannot be had: under CI, where the workflow fetches the
 * binary first, a missing one means the suite would not run at all, so the run fails (as the sandbox suites do);
 * elsewhere (these machines cannot download it) it skips, loudly, and succeeds.
 */
import { skipMessage } from "../../scripts/electron-binary.mjs";

/**
 * @param {string} missing why the binary is missing (findElectronBinary's words)
 * @param {Record<string, string | undefined>} env the environment; CI counts when set, as for the sandbox suites
 * @returns {{ exitCode: number, message: string }}
 */
export function whenBinaryMissing(missing, env) {
  const line = "=".repeat(100);
  if (env.CI) {
    return {
      exitCode: 1,
      message: `${line}\nFAILED: the Electron suite must run on CI, but the Electron binary is not available (${missing}). Fetch it first (node node_modules/electron/install.js).\n${line}`,
    };
  }
  return { exitCode: 0, message: `${line}\n${skipMessage(missing)}\n${line}` };
}
