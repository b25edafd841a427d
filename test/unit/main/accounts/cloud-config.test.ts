import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CloudConfig, checkCredentialsFile } from "../../../../src/main/accounts/cloud-config";
import { plaintextDevCipher, SecretStore } from "../../../../src/main/broker/secrets";
import { SettingsStore } from "../../../../src/main/broker/settings-store";
import { AMBIENT_CREDENTIALS, cloudChangeProblems, cloudEnvironment } from "../../../../src/shared/providers/cloud-settings";
import { Fifos } from "../../../../testkit/fifos";

let dir: string;
let settings: SettingsStore;
let secrets: SecretStore;
let cloud: CloudConfig;
const fifos = new Fifos();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "paddock-cloud-"));
  settings = SettingsStore.open({ cwd: dir });
  secrets = SecretStore.open(join(dir, "secrets.json"), plaintextDevCipher);
  cloud = new CloudConfig({ settings, secrets, applicationDefaultCredentials: join(dir, "no-adc.json") });
});
afterEach(() => {
  fifos.releaseAll();
  rmSync(dir, { recursive: true, force: true });
});

const keyFile = (name = "sa.json", body: unknown = { type: "service_account", project_id: "p" }) => {
  const path = join(dir, name);
  writeFileSync(path, typeof body === "string" ? body : JSON.stringify(body));
  return path;
};

describe("cloud providers' fields", () => {
  it("Bedrock: region, profile and key id go to settings, the secret key and session token only to the secret store", async () => {
    await cloud.save("amazon-bedrock", {
      fields: { region: "eu-west-3", accessKeyId: "AKIAEXAMPLE12345" },
      secrets: { secretAccessKey: "wJalr/secret", sessionToken: "tok-123" },
    });
    expect(settings.get().cloudProviders).toEqual({ "amazon-bedrock": { region: "eu-west-3", accessKeyId: "AKIAEXAMPLE12345" } });
    const onDisk = readFileSync(join(dir, "settings.json"), "utf8");
    expect(onDisk).not.toContain("wJalr");
    expect(onDisk).not.toContain("tok-123");
    expect(cloud.status("amazon-bedrock")).toEqual({
      fields: { region: "eu-west-3", profile: "", accessKeyId: "AKIAEXAMPLE12345" },
      secretsSet: ["secretAccessKey", "sessionToken"],
    });
    expect(cloud.environment("amazon-bedrock", "anthropic.claude")).toEqual({
      AWS_REGION: "eu-west-3",
      AWS_ACCESS_KEY_ID: "AKIAEXAMPLE12345",
      AWS_SECRET_ACCESS_KEY: "wJalr/secret",
      AWS_SESSION_TOKEN: "tok-123",
    });
    expect(cloud.configured("amazon-bedrock")).toBe(true);
    expect(cloud.ambientKey("amazon-bedrock")).toBe(AMBIENT_CREDENTIALS);

    // A secret removed with null, a field cleared with "".
    await cloud.save("amazon-bedrock", { fields: { accessKeyId: "", profile: "work" }, secrets: { sessionToken: null, secretAccessKey: null } });
    expect(cloud.environment("amazon-bedrock", "m")).toEqual({ AWS_REGION: "eu-west-3", AWS_PROFILE: "work" });
    expect(cloud.status("amazon-bedrock").secretsSet).toEqual([]);
    expect(cloud.configured("amazon-bedrock")).toBe(true); // a profile is enough
  });

  it("Azure: a plain deployment maps the requested model to it; pairs pass as written", async () => {
    await cloud.save("azure", { fields: { baseUrl: "https://lab.openai.azure.com/openai/v1", deployment: "prod-gpt", apiVersion: "2025-04-01-preview" }, secrets: {} });
    expect(cloud.environment("azure", "gpt-5")).toEqual({
      AZURE_OPENAI_BASE_URL: "https://lab.openai.azure.com/openai/v1",
      AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-5=prod-gpt",
      AZURE_OPENAI_API_VERSION: "2025-04-01-preview",
    });
    expect(cloudEnvironment("azure", { deployment: "gpt-5=a, gpt-4o=b" }, () => undefined, "gpt-5")).toEqual({ AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-5=a, gpt-4o=b" });
    // Azure always needs its key: the fields alone do not make it usable.
    expect(cloud.configured("azure")).toBe(false);
  });

  it("bad values are refused in words, all at once, and nothing is saved", async () => {
    await expect(cloud.save("azure", { fields: { baseUrl: "ftp://x", resourceName: "bad name", apiVersion: "v1" }, secrets: {} })).rejects.toThrow(
      /Base URL: must be an http\(s\) address; Resource name: "bad name" is not a resource name/,
    );
    await expect(cloud.save("amazon-bedrock", { fields: { region: "mars", secretAccessKey: "x" }, secrets: { region: "x" } })).rejects.toThrow(
      /Region: "mars" is not an AWS region.*has no setting "secretAccessKey".*has no secret "region"/,
    );
    await expect(cloud.save("openai", { fields: {}, secrets: {} })).rejects.toThrow(/openai has no settings beyond its key/);
    expect(settings.get().cloudProviders).toBeUndefined();
    expect(secrets.providers()).toEqual([]);
  });

  it("Vertex: a credentials file is checked on disk and saved by its real path; project and location make it usable", async () => {
    const real = keyFile();
    const link = join(dir, "link.json");
    symlinkSync(real, link);
    await cloud.save("google-vertex", { fields: { project: "my-project-1", location: "us-central1", credentialsFile: link }, secrets: {} });
    expect(settings.get().cloudProviders?.["google-vertex"]?.credentialsFile).toBe(real);
    expect(cloud.environment("google-vertex", "gemini")).toEqual({
      GOOGLE_CLOUD_PROJECT: "my-project-1",
      GOOGLE_CLOUD_LOCATION: "us-central1",
      GOOGLE_APPLICATION_CREDENTIALS: real,
    });
    expect(cloud.configured("google-vertex")).toBe(true);
    // Without a file of its own, gcloud's default credentials must exist.
    await cloud.save("google-vertex", { fields: { credentialsFile: "" }, secrets: {} });
    expect(cloud.configured("google-vertex")).toBe(false);
  });

  it("a credentials file that is missing, a folder, a FIFO, too large or not a Google key file is refused, saying which", async () => {
    const say = async (path: string) => {
      const checked = await checkCredentialsFile(path);
      return typeof checked === "string" ? "ok" : checked.problem;
    };
    expect(await say(join(dir, "nope.json"))).toMatch(/there is no such file/);
    mkdirSync(join(dir, "folder"));
    expect(await say(join(dir, "folder"))).toMatch(/is a folder, not a file/);
    const fifo = fifos.make(join(dir, "pipe.json"));
    expect(await say(fifo)).toMatch(/FIFO/);
    expect(await say(keyFile("big.json", "x".repeat(300 * 1024)))).toMatch(/larger than/);
    expect(await say(keyFile("text.json", "not json"))).toMatch(/is not a JSON key file/);
    expect(await say(keyFile("array.json", [1, 2]))).toMatch(/has no "type"/);
    expect(await say("relative/key.json")).toMatch(/must be a full path/);
    expect(await say(keyFile())).toBe("ok");
    // Through save: the whole change is refused and nothing is written.
    await expect(cloud.save("google-vertex", { fields: { project: "my-project-1", credentialsFile: fifo }, secrets: {} })).rejects.toThrow(/FIFO/);
    expect(settings.get().cloudProviders).toBeUndefined();
  });

  it("where the system offers no secure storage, a secret is refused in words and no setting changes either", async () => {
    const locked = SecretStore.open(join(dir, "locked.json"), { ...plaintextDevCipher, isAvailable: () => false });
    const noStore = new CloudConfig({ settings, secrets: locked });
    await expect(noStore.save("amazon-bedrock", { fields: { region: "eu-west-3" }, secrets: { secretAccessKey: "s" } })).rejects.toThrow(/no secure storage/);
    expect(settings.get().cloudProviders).toBeUndefined();
  });

  it("the page's change is checked field by field, pure", () => {
    expect(cloudChangeProblems("google-vertex", { fields: { project: "Bad_Project", location: "us-central1" }, secrets: {} })).toEqual([
      'Project: "Bad_Project" is not a project ID (lower-case letters, digits and -)',
    ]);
    expect(cloudChangeProblems("azure", { fields: { deployment: "gpt-5=prod, gpt-4o=mini" }, secrets: {} })).toEqual([]);
    expect(cloudChangeProblems("amazon-bedrock", { fields: { region: "us-gov-west-1", profile: "dev.team" }, secrets: { secretAccessKey: "s" } })).toEqual([]);
  });
});
