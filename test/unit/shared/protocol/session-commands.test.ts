/**
 * The session command table (shared/protocol/session-protocol.ts's SESSION_COMMANDS): every method has its schema,
 * the worker's api, the page's client and the e2e fake session all carry exactly the table's methods, and every call
 * a schema admits is one the signature takes.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Static } from "typebox";
import { Value } from "typebox/value";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  isSessionMethod,
  PAGE_SESSION_METHODS,
  SESSION_COMMANDS,
  SESSION_METHOD_SCHEMAS,
  SESSION_METHODS,
  sessionApiWith,
  type SessionApi,
  type SessionMethod,
} from "../../../../src/shared/protocol/session-protocol";
import { SessionClient } from "../../../../src/renderer/store/session-client";
import type { SessionCommands } from "../../../../src/renderer/store/session-view";

const sorted = (names: Iterable<string>): string[] => [...names].sort();

/** A handler for every method that answers with its own name. */
function namedHandlers(): SessionApi {
  return Object.fromEntries(SESSION_METHODS.map((method) => [method, () => Promise.resolve(method)])) as unknown as SessionApi;
}

describe("session command table", () => {
  it("gives every method an argument schema, and the schema table no method beside them", () => {
    expect(SESSION_METHODS.length).toBeGreaterThan(0);
    expect(sorted(Object.keys(SESSION_METHOD_SCHEMAS))).toEqual(sorted(SESSION_METHODS));
    for (const method of SESSION_METHODS) {
      expect(SESSION_METHOD_SCHEMAS[method], method).toBe(SESSION_COMMANDS[method].args);
      expect(typeof SESSION_COMMANDS[method].page, method).toBe("boolean");
      expect(isSessionMethod(method)).toBe(true);
    }
    expect(isSessionMethod("toString")).toBe(false);
    expect(isSessionMethod("dismissNotice")).toBe(false);
  });

  it("lets a page send every command but the client's own reads and reset", () => {
    expect(sorted(SESSION_METHODS.filter((method) => !PAGE_SESSION_METHODS.includes(method as never)))).toEqual(["getHistory", "getSnapshot", "reset"]);
  });

  it("admits only calls the TypeScript signatures take, and the calls pages make", () => {
    type Untyped = { [K in SessionMethod]: Static<(typeof SESSION_METHOD_SCHEMAS)[K]> extends Parameters<SessionApi[K]> ? never : K }[SessionMethod];
    expectTypeOf<Untyped>().toEqualTypeOf<never>();
    expect(Value.Check(SESSION_METHOD_SCHEMAS.prompt, ["hi"])).toBe(true);
    // A run's contract (run-contract.ts: a message sent in Plan, an unattended run) rides on prompt; nothing else does.
    expect(Value.Check(SESSION_METHOD_SCHEMAS.prompt, ["hi", [], { unattended: true }])).toBe(true);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.prompt, ["hi", [], { plan: true, profile: "ask" }])).toBe(true);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.prompt, ["hi", [], { unattended: "yes" }])).toBe(false);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.prompt, ["hi", [], { profile: "root" }])).toBe(false);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.followUp, ["hi", [], { unattended: true }])).toBe(false);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.answerApproval, ["call-1", "once"])).toBe(true);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.answerApproval, ["call-1", "deny", "not now"])).toBe(true);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.answerApproval, ["call-1", "always"])).toBe(false);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.getSnapshot, [])).toBe(true);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.removeQueued, ["steering", 0])).toBe(true);
    expect(Value.Check(SESSION_METHOD_SCHEMAS.removeQueued, ["later", 0])).toBe(false);
  });

  it("serves exactly the table's methods from the worker's handlers", async () => {
    const api = sessionApiWith({ ...namedHandlers(), extra: () => Promise.resolve() } as SessionApi);
    expect(sorted(Object.keys(api))).toEqual(sorted(SESSION_METHODS));
    await expect(api.regenerate()).resolves.toBe("regenerate");
    const { compact: _missing, ...partial } = namedHandlers();
    expect(() => sessionApiWith(partial as SessionApi)).toThrow(/compact has no handler/);
  });

  it("gives the page's client a pass-through for every page command and none for the rest", () => {
    for (const method of SESSION_METHODS) {
      const passThrough = Object.getOwnPropertyDescriptor(SessionClient.prototype, method)?.value as unknown;
      expect(typeof passThrough, method).toBe(PAGE_SESSION_METHODS.includes(method as never) ? "function" : "undefined");
    }
  });

  it("gives the e2e fake session exactly the page's commands", async () => {
    const url = pathToFileURL(resolve("test/e2e/fixtures/fake-session.js")).href;
    const { FakeSession } = (await import(url)) as { FakeSession: new (id: string) => { commands: SessionCommands } };
    expect(sorted(Object.keys(new FakeSession("s1").commands))).toEqual(sorted([...PAGE_SESSION_METHODS, "dismissNotice", "retryWorker"]));
  });
});
