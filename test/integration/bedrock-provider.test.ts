/**
 * Amazon Bedrock from the built app: pi-ai loads Bedrock's stream code (and the AWS SDK under it) on first use, through
 * a specifier a bundler cannot follow, so a bundle that does not register pi-ai's lazy loader looks for a file next to
 * its own chunks that does not exist there, and Bedrock never loads while Settings lists it. Here a real worker, built
 * as shipped, asks a stand-in Bedrock runtime (the SDK sent there by `AWS_ENDPOINT_URL_BEDROCK_RUNTIME`): the request
 * must arrive, signed with the configured key, at the Converse stream of the chosen model. (The SDK speaks HTTP/2 to
 * Bedrock's own endpoints, so the stand-in does too, without TLS.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getBuiltinModels } from "@earendil-works/pi-ai/providers/all";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import type { SessionClient } from "../../src/renderer/store/session-client";
import { askInNewChat, createTestCore } from "../../testkit/test-core";

const MODEL = getBuiltinModels("amazon-bedrock")[0]!.id;
const AWS_VARIABLES = ["AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "AWS_PROFILE"] as const;

let dir: string;
let core: Core<never>;
let bedrock: Http2Server;
let requests: { method: string; url: string; authorization: string }[];
const saved = new Map<string, string | undefined>();
const clients: SessionClient[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-bedrock-"));
  requests = [];
  bedrock = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", authorization: String(req.headers.authorization ?? "") });
      res.writeHead(400, { "content-type": "application/json", "x-amzn-errortype": "ValidationException" }).end(JSON.stringify({ message: "stand-in Bedrock says no" }));
    });
  });
  await new Promise<void>((r) => bedrock.listen(0, "127.0.0.1", r));
  for (const name of AWS_VARIABLES) saved.set(name, process.env[name]);
  delete process.env.AWS_PROFILE;
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: `http://127.0.0.1:${(bedrock.address() as AddressInfo).port}`,
    AWS_ACCESS_KEY_ID: "AKIAPADDOCKTEST",
    AWS_SECRET_ACCESS_KEY: "paddock-test-secret",
    AWS_REGION: "us-east-1",
  });
  core = await createTestCore({
    dataDir: dir,
    prepareSettings: (settings) => settings.update({ defaultModel: { provider: "amazon-bedrock", id: MODEL } }),
  });
});
afterEach(async () => {
  for (const c of clients) c.close();
  clients.length = 0;
  await core.shutdown();
  await new Promise<void>((r) => bedrock.close(() => r()));
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("Amazon Bedrock", () => {
  it("loads its stream code from the built worker: the request reaches the Converse stream, signed with the key", async () => {
    const client = await askInNewChat(core, "hello Bedrock", clients);
    const start = Date.now();
    while (requests.length === 0 && Date.now() - start < 15_000) {
      const error = client.mirror.getView().state.errorMessage;
      if (error && /Cannot find module|ERR_MODULE_NOT_FOUND/.test(error)) throw new Error(`Bedrock did not load: ${error}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(requests.length, `no request reached the stand-in; the chat says: ${client.mirror.getView().state.errorMessage}`).toBe(1);
    expect(requests[0]).toMatchObject({ method: "POST", url: `/model/${encodeURIComponent(MODEL)}/converse-stream` });
    expect(requests[0].authorization).toContain("Credential=AKIAPADDOCKTEST/");
  });

  it("is the only provider pi-ai loads through a specifier our bundle cannot follow (a new one would need its loader)", () => {
    const apiFolder = join(process.cwd(), "node_modules", "@earendil-works", "pi-ai", "dist", "api");
    const variable = readdirSync(apiFolder).filter((f) => f.endsWith(".js") && readFileSync(join(apiFolder, f), "utf8").includes("importNodeOnly"));
    expect(variable).toEqual(["bedrock-converse-stream.lazy.js"]);
  });
});
