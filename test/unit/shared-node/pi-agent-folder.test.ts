import { describe, expect, it } from "vitest";
import { piAgentFolder } from "../../../src/shared-node/pi-agent-folder";

describe("pi's user folder", () => {
  it("is ~/.pi/agent unless PI_CODING_AGENT_DIR moves it", () => {
    expect(piAgentFolder({ homeDir: "/home/ada", env: {} })).toBe("/home/ada/.pi/agent");
    expect(piAgentFolder({ homeDir: "/home/ada", env: { PI_CODING_AGENT_DIR: "  " } })).toBe("/home/ada/.pi/agent");
  });

  it("follows PI_CODING_AGENT_DIR, expanding a leading ~ as pi does", () => {
    expect(piAgentFolder({ homeDir: "/home/ada", env: { PI_CODING_AGENT_DIR: "/srv/pi" } })).toBe("/srv/pi");
    expect(piAgentFolder({ homeDir: "/home/ada", env: { PI_CODING_AGENT_DIR: "~/pi-config" } })).toBe("/home/ada/pi-config");
    expect(piAgentFolder({ homeDir: "/home/ada", env: { PI_CODING_AGENT_DIR: "~" } })).toBe("/home/ada");
  });
});
