/**
 * The trust set-up's decisions over a stand-in `node:tls` (this machine's Node 20 has neither call; the real thing
 * runs under Node 24 in test/integration/system-certificates.test.ts): what goes into the default list, what an
 * older runtime, a bad NODE_EXTRA_CA_CERTS or a failing store does (one clear line each, never a throw).
 */
import { describe, expect, it } from "vitest";
import { trustSystemCertificates, type TlsCertificateApi } from "../../../../src/shared-node/process/system-certificates";
import { TempFolders } from "../../../../testkit/temp-folders";

const pem = (name: string) => `-----BEGIN CERTIFICATE-----\nMII${name}\n-----END CERTIFICATE-----\n`;

function fakeTls(stores: { bundled?: string[]; system?: string[] | Error; setFails?: boolean } = {}) {
  let set: string[] | undefined;
  const tls: TlsCertificateApi = {
    getCACertificates: (type) => {
      if (type === "system") {
        if (stores.system instanceof Error) throw stores.system;
        return stores.system ?? [];
      }
      if (type === "bundled") return stores.bundled ?? [pem("bundled")];
      throw new Error(`unexpected store ${String(type)}`);
    },
    setDefaultCACertificates: (certs) => {
      if (stores.setFails) throw new Error("bad certificate");
      set = certs;
    },
  };
  return { tls, set: () => set };
}

describe("trustSystemCertificates", () => {
  it("sets bundled + system + NODE_EXTRA_CA_CERTS's file, each certificate once, and says nothing", () => {
    const temp = new TempFolders("paddock-certs-");
    try {
      const folder = temp.make({ "extra.pem": `junk before\n${pem("extra1")}${pem("system1")}\r\n${pem("extra2")}` });
      const fake = fakeTls({ bundled: [pem("bundled")], system: [pem("system1"), pem("system2")] });
      const lines: string[] = [];
      const outcome = trustSystemCertificates({ tls: fake.tls, env: { NODE_EXTRA_CA_CERTS: `${folder}/extra.pem` }, log: (line) => lines.push(line) });
      expect(fake.set()).toEqual([pem("bundled"), pem("system1"), pem("system2"), pem("extra1"), pem("extra2")]);
      expect(outcome).toMatchObject({ applied: true, bundled: 1, system: 2, extra: 3, problems: [] });
      expect(lines).toEqual([]);
    } finally {
      temp.removeAll();
    }
  });

  it("on a runtime without the calls (Node 20) logs one line and changes nothing", () => {
    const lines: string[] = [];
    const outcome = trustSystemCertificates({ tls: {}, env: {}, log: (line) => lines.push(line) });
    expect(outcome.applied).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^paddock: Node v[\d.]+ cannot trust the system's certificates \(tls.setDefaultCACertificates needs Node 22.19 or later\)/);
  });

  it("a worker on such a runtime leaves the saying to main, but still names a bad NODE_EXTRA_CA_CERTS", () => {
    const lines: string[] = [];
    const quiet = trustSystemCertificates({ tls: {}, env: {}, log: (line) => lines.push(line), sayUnsupported: false });
    expect(quiet.applied).toBe(false);
    expect(quiet.problems).toHaveLength(1);
    expect(lines).toEqual([]);
    trustSystemCertificates({ tls: {}, env: { NODE_EXTRA_CA_CERTS: "/nowhere/ca.pem" }, log: (line) => lines.push(line), sayUnsupported: false });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("/nowhere/ca.pem");
  });

  it("a NODE_EXTRA_CA_CERTS that is missing, a folder or holds no certificate is named in a line; the system's are still trusted", () => {
    const temp = new TempFolders("paddock-certs-");
    try {
      const folder = temp.make({ "empty.pem": "no certificates here" });
      for (const [file, why] of [
        [`${folder}/missing.pem`, /could not be read \(ENOENT\)/],
        [folder, /could not be read \(not a regular file\)/],
        [`${folder}/empty.pem`, /holds no PEM certificate/],
      ] as const) {
        const fake = fakeTls({ system: [pem("system1")] });
        const lines: string[] = [];
        const outcome = trustSystemCertificates({ tls: fake.tls, env: { NODE_EXTRA_CA_CERTS: file }, log: (line) => lines.push(line) });
        expect(outcome.applied).toBe(true);
        expect(fake.set()).toEqual([pem("bundled"), pem("system1")]);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(`NODE_EXTRA_CA_CERTS names ${file}`);
        expect(lines[0]).toMatch(why);
      }
    } finally {
      temp.removeAll();
    }
  });

  it("a system store that fails to read leaves bundled + extra; a list Node refuses leaves the default; neither throws", () => {
    const failing = fakeTls({ system: new Error("keychain locked") });
    const lines: string[] = [];
    expect(trustSystemCertificates({ tls: failing.tls, env: {}, log: (line) => lines.push(line) }).applied).toBe(true);
    expect(failing.set()).toEqual([pem("bundled")]);
    expect(lines).toEqual([expect.stringContaining("the system's certificates could not be read (keychain locked)")]);

    const refused = fakeTls({ system: [pem("system1")], setFails: true });
    const more: string[] = [];
    expect(trustSystemCertificates({ tls: refused.tls, env: {}, log: (line) => more.push(line) }).applied).toBe(false);
    expect(more).toEqual([expect.stringContaining("could not be set (bad certificate)")]);
  });
});
