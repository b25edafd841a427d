/**
 * Which certificate authorities a Paddock process trusts for TLS: Node's bundled roots, plus the system's, plus the
 * file `NODE_EXTRA_CA_CERTS` names. Every process entry (main, agent workers, the MCP host) calls
 * `trustSystemCertificates()` first, before anything opens a connection.
 *
 * Why: Node trusts only its bundled roots by default, so behind a corporate proxy that intercepts TLS with its own
 * root (installed in the system's store by IT) no provider request works. The usual way out, `NODE_EXTRA_CA_CERTS`,
 * is dropped in the packaged app: the `EnableNodeOptionsEnvironmentVariable` fuse that stops `NODE_OPTIONS` stops it
 * too. So the file is read here, and the system's store is added with `tls.getCACertificates("system")` (the macOS
 * keychain, the Windows store, OpenSSL's files on Linux, which honour `SSL_CERT_FILE`/`SSL_CERT_DIR`).
 *
 * `tls.setDefaultCACertificates` (Node 22.19 / 24.5) changes the default for everything made afterwards: `https`,
 * `tls.connect` and Node's own `fetch` (undici), which pi-ai's providers (their SDKs call `fetch`; Bedrock's AWS SDK
 * uses `https`) and the MCP SDK's HTTP transports use; test/integration/system-certificates.test.ts checks this
 * under Node 24. An older runtime (Node 20 here) has no such call: the process logs one line saying so and goes on
 * with the bundled roots. Nothing here throws: a certificate set-up that fails must not stop a process from starting.
 */
import * as nodeTls from "node:tls";
import { readFileSync, statSync } from "node:fs";

/** What the parts of `node:tls` this module uses look like; absent ones are older runtimes'. Tests pass a fake. */
export interface TlsCertificateApi {
  getCACertificates?: (type?: "default" | "system" | "bundled" | "extra") => string[];
  setDefaultCACertificates?: (certs: string[]) => void;
}

export interface TrustOptions {
  env?: NodeJS.ProcessEnv;
  tls?: TlsCertificateApi;
  /** Where the one line about the outcome goes when something is missing or wrong (stderr by default). */
  log?: (line: string) => void;
  /** Reads `NODE_EXTRA_CA_CERTS`'s file (tests); by default the file system's, bounded. */
  readFile?: (path: string) => string;
  /**
   * False in child processes (workers, the MCP host): a runtime without the calls is the host's runtime too, and the
   * host (main, the web host) has said so once; each of many workers saying it again is noise. Other problems are
   * still logged.
   */
  sayUnsupported?: boolean;
}

export interface TrustOutcome {
  /** Whether the default list was set (false: the runtime's default stands). */
  applied: boolean;
  bundled: number;
  system: number;
  extra: number;
  /** Problems met (each also logged): a missing runtime API, an unreadable extra file, a failing store. */
  problems: string[];
}

/** An extra-certificates file bigger than this is not a certificate bundle. */
const MAX_EXTRA_FILE_BYTES = 8 * 1024 * 1024;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

let done: TrustOutcome | undefined;

/**
 * Sets the process's default CA list to bundled + system + extra (once per process; later calls return the first
 * outcome). Safe on any runtime: see the module comment.
 */
export function trustSystemCertificates(options: TrustOptions = {}): TrustOutcome {
  if (done && !options.tls) return done;
  const outcome = applyTrust(options);
  if (!options.tls) done = outcome;
  return outcome;
}

function applyTrust(options: TrustOptions): TrustOutcome {
  const tls = options.tls ?? (nodeTls as unknown as TlsCertificateApi);
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.error(line));
  const problems: string[] = [];
  const outcome = (applied: boolean, bundled = 0, system = 0, extra = 0): TrustOutcome => {
    for (const problem of problems) log(`paddock: ${problem}`);
    return { applied, bundled, system, extra, problems };
  };
  const extraFile = env.NODE_EXTRA_CA_CERTS?.trim();
  const extra = extraFile ? readExtraCertificates(extraFile, options.readFile ?? readBounded, problems) : [];
  if (typeof tls.getCACertificates !== "function" || typeof tls.setDefaultCACertificates !== "function") {
    const unsupported =
      `Node ${process.version} cannot trust the system's certificates (tls.setDefaultCACertificates needs Node 22.19 or later): ` +
      `TLS connections trust Node's bundled roots${extraFile ? " and NODE_EXTRA_CA_CERTS (read by Node itself, outside the packaged app)" : ""} only`;
    if (options.sayUnsupported === false) {
      const result = outcome(false);
      return { ...result, problems: [...result.problems, unsupported] };
    }
    problems.push(unsupported);
    return outcome(false);
  }
  let bundled: string[];
  try {
    bundled = tls.getCACertificates("bundled");
  } catch (error) {
    problems.push(`Node's bundled certificates could not be read (${(error as Error).message}); the default list is kept`);
    return outcome(false);
  }
  let system: string[] = [];
  try {
    system = tls.getCACertificates("system");
  } catch (error) {
    problems.push(`the system's certificates could not be read (${(error as Error).message}); trusting Node's bundled ones${extra.length ? " and NODE_EXTRA_CA_CERTS" : ""}`);
  }
  const all = unique([...bundled, ...system, ...extra]);
  try {
    tls.setDefaultCACertificates(all);
  } catch (error) {
    problems.push(`the certificate list could not be set (${(error as Error).message}); the default list is kept`);
    return outcome(false, bundled.length, system.length, extra.length);
  }
  return outcome(true, bundled.length, system.length, extra.length);
}

/** The PEM certificates in `file`; a problem (none found, unreadable) is added to `problems`, never thrown. */
function readExtraCertificates(file: string, read: (path: string) => string, problems: string[]): string[] {
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    problems.push(`NODE_EXTRA_CA_CERTS names ${file}, which could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): its certificates are not trusted`);
    return [];
  }
  const certs = [...text.matchAll(PEM_BLOCK)].map((match) => `${match[0]}\n`);
  if (certs.length === 0) problems.push(`NODE_EXTRA_CA_CERTS names ${file}, which holds no PEM certificate ("-----BEGIN CERTIFICATE-----"): nothing from it is trusted`);
  return certs;
}

/** The file's text; a folder, a FIFO (which would block the start) or anything but a regular file is refused. */
function readBounded(path: string): string {
  const info = statSync(path);
  if (!info.isFile()) throw new Error("not a regular file");
  if (info.size > MAX_EXTRA_FILE_BYTES) throw new Error(`larger than ${MAX_EXTRA_FILE_BYTES / 1024 / 1024} MB`);
  const buffer = readFileSync(path);
  if (buffer.length > MAX_EXTRA_FILE_BYTES) throw new Error(`larger than ${MAX_EXTRA_FILE_BYTES / 1024 / 1024} MB`);
  return buffer.toString("utf8");
}

/** Each certificate once, compared without its line breaks and spacing. */
function unique(certs: string[]): string[] {
  const seen = new Set<string>();
  return certs.filter((cert) => {
    const key = cert.replace(/\s+/g, "");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
