/** How a sandboxed command's network question names the program and the host (network-question.ts). */
import { describe, expect, it } from "vitest";
import { networkSummary } from "../../../../../src/agent-worker/host/approvals/network-question";

describe("a network question's words", () => {
  it("name the program the command runs and the host, with its port unless the usual one", () => {
    expect(networkSummary({ host: "registry.npmjs.org", port: 443, commands: [{ command: "npm install left-pad" }] })).toBe("npm wants registry.npmjs.org");
    expect(networkSummary({ host: "127.0.0.1", port: 8123, commands: [{ command: "cd app && curl -s http://127.0.0.1:8123/x" }] })).toBe("curl wants 127.0.0.1:8123");
    expect(networkSummary({ host: "pypi.org", port: 443, commands: [{ command: "FOO=1 /usr/bin/pip3 install x" }] })).toBe("pip3 wants pypi.org");
    expect(networkSummary({ host: "a.org", port: undefined, commands: [{ command: "npm ci" }, { command: "git fetch" }] })).toBe("npm or git wants a.org");
    expect(networkSummary({ host: "a.org", port: 80, commands: [] })).toBe("A command wants a.org");
  });
});
