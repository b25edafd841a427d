/**
 * The desktop bridge's contract (shared/protocol/desktop-bridge.ts): the page sees main's own error messages,
 * as in the browser host, and port requests carry nonces main and the preload can check.
 */
import { describe, expect, it } from "vitest";
import { isPortRequestNonce, remoteErrorMessage } from "../../../../src/shared/protocol/desktop-bridge";

describe("remoteErrorMessage", () => {
  it("takes off the wrapping ipcRenderer.invoke puts around main's error", () => {
    expect(remoteErrorMessage("Error invoking remote method 'paddock:call': Error: renameSession: invalid arguments at /0: Expected string"))
      .toBe("renameSession: invalid arguments at /0: Expected string");
    expect(remoteErrorMessage("Error invoking remote method 'paddock:session-port': Error: No such chat")).toBe("No such chat");
    expect(remoteErrorMessage("Error invoking remote method 'paddock:call': TypeError: x is not a function")).toBe("x is not a function");
    // Something thrown that was no Error has no name to take off.
    expect(remoteErrorMessage("Error invoking remote method 'paddock:call': plain words")).toBe("plain words");
  });

  it("leaves every other message as it is, colons and all", () => {
    expect(remoteErrorMessage("No such chat")).toBe("No such chat");
    expect(remoteErrorMessage("Error: the model said: Error: nope")).toBe("Error: the model said: Error: nope");
    expect(remoteErrorMessage("Could not open /tmp/x: Error: EACCES")).toBe("Could not open /tmp/x: Error: EACCES");
  });
});

describe("isPortRequestNonce", () => {
  it("takes a UUID and short opaque tokens, nothing that could carry more", () => {
    expect(isPortRequestNonce("0f8b2c3e-7a1d-4c5e-9b6f-2a3d4e5f6a7b")).toBe(true);
    expect(isPortRequestNonce("abcdEFGH_12-")).toBe(true);
    for (const value of ["short", "x".repeat(65), "has space 123", "semi;colon12", 12345678, null, undefined, {}]) {
      expect(isPortRequestNonce(value), String(value)).toBe(false);
    }
  });
});
