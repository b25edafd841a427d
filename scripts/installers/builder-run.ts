/**
 * Runs electron-builder with its output passed through as it comes, except that a download failure ends in a plain
 * explanation instead of a stack trace. electron-builder fetches Electron (and, per target, its packaging tools:
 * NSIS, the AppImage runtime, fpm) from GitHub on first use and caches them; a machine that cannot reach GitHub
 * (like the ones Paddock is developed on) cannot build installers, and should say so in words.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** Error codes and texts of a download that could not happen (no DNS, no route, refused, timed out, cut). */
const NETWORK_FAILURE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|socket hang up)\b/;

/** electron-builder's error line: `  ⨯ <message>  failedTask=build stackTrace=<first line of the stack>`. */
const ERROR_LINE = /^\s*⨯\s*(.*?)(\s+failedTask=\S+)?(\s+stackTrace=.*)?$/;

/** When `line` is electron-builder reporting a download failure, the failure (e.g. "getaddrinfo ENOTFOUND github.com"). */
export function downloadFailure(line: string): string | null {
  const error = ERROR_LINE.exec(line);
  if (!error || !NETWORK_FAILURE.test(line)) return null;
  return error[1].trim();
}

/** What a contributor reads when electron-builder could not download what it needs. */
export function downloadFailureMessage(failure: string, electronVersion: string, build: string): string {
  return [
    "",
    `npm run dist: electron-builder could not download what it needs for ${build} (${failure}).`,
    `It fetches Electron ${electronVersion} and its packaging tools (NSIS, the AppImage runtime, fpm, ...) from GitHub on`,
    "first use and keeps them in its cache. Build installers on a machine that can reach github.com (the release",
    "workflow does), or point ELECTRON_MIRROR and ELECTRON_BUILDER_BINARIES_MIRROR at mirrors this one can reach.",
    "",
  ].join("\n");
}

/**
 * Runs `node <cli> ...args` in `cwd` and resolves to its exit code (1 when it died by a signal). Lines pass through to
 * this process's stdout and stderr; once a download failure is seen, the stack trace after it is held back and the
 * run ends with `onDownloadFailure`'s text on stderr.
 */
export function runElectronBuilder(cli: string, args: string[], cwd: string, onDownloadFailure: (failure: string) => string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let failure: string | null = null;
    const pass = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
      createInterface({ input: stream }).on("line", (line) => {
        const found = downloadFailure(line);
        if (found !== null && failure === null) {
          failure = found;
          out.write(`  ⨯ ${found}\n`);
          return;
        }
        // The rest of a download failure is its stack trace: it says nothing the explanation does not.
        if (failure !== null && /^\s+at\s/.test(line)) return;
        out.write(`${line}\n`);
      });
    };
    pass(child.stdout, process.stdout);
    pass(child.stderr, process.stderr);
    child.once("error", reject);
    child.once("close", (code) => {
      if (failure !== null) process.stderr.write(onDownloadFailure(failure));
      resolve(code ?? 1);
    });
  });
}
