/**
 * A workspace that is the home folder, or holds Paddock's data folder, is refused unless the user insists: real
 * folders in a temporary HOME, reached by their own names and by symlinked spellings, through main's check and
 * through the page's call (`setWorkspace`, checked against its schema, on the core both hosts assemble).
 */
import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatchAppCall } from "../../../../src/main/broker/app-call";
import { createCore, type Core } from "../../../../src/main/broker/core";
import { NodeWorkerLauncher } from "../../../../src/main/broker/node-worker-launcher";
import { plaintextDevCipher } from "../../../../src/main/broker/secrets";
import { DATA_FOLDER_REASON, expandHome, HOME_FOLDER_REASON, workspaceRefusal } from "../../../../src/main/broker/workspace-guard";
import { TempFolders } from "../../../../testkit/temp-folders";

const folders = new TempFolders("paddock-ws-guard-");
let home: string;
let dataDir: string;
let elsewhere: string;

beforeAll(() => {
  home = realpathSync(folders.make({}));
  // The browser host's default: a data folder inside a project (./.paddock-dev).
  dataDir = join(home, "code", "paddock", ".paddock-dev");
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(join(home, "code", "other", "src"), { recursive: true });
  elsewhere = realpathSync(folders.make({}));
  symlinkSync(home, join(elsewhere, "home-link"));
  symlinkSync(join(home, "code", "paddock"), join(elsewhere, "project-link"));
});
afterAll(() => folders.removeAll());

describe("main's check", () => {
  const refusal = (folder: string) => workspaceRefusal(realpathSync(folder), { home, dataDir });

  it("refuses the home folder and every folder holding the data folder, by any spelling", async () => {
    expect(await refusal(home)).toBe(HOME_FOLDER_REASON);
    expect(await refusal(join(elsewhere, "home-link"))).toBe(HOME_FOLDER_REASON);
    for (const folder of [join(home, "code"), join(home, "code", "paddock"), dataDir, join(elsewhere, "project-link")]) {
      expect(await refusal(folder), folder).toBe(DATA_FOLDER_REASON);
    }
  });

  it("says the home folder's reason when the data folder is elsewhere, and a data folder reached by a symlink counts", async () => {
    expect(await workspaceRefusal(home, { home, dataDir: join(elsewhere, "data") })).toBe(HOME_FOLDER_REASON);
    expect(await workspaceRefusal(join(home, "code"), { home: join(elsewhere, "home-link"), dataDir: join(elsewhere, "project-link", ".paddock-dev") }))
      .toBe(DATA_FOLDER_REASON);
  });

  it("lets a project folder beside the data folder, or inside the home folder, through", async () => {
    for (const folder of [join(home, "code", "other"), join(home, "code", "other", "src"), elsewhere]) {
      expect(await refusal(folder), folder).toBeUndefined();
    }
  });
});

describe("a typed ~", () => {
  it("stands for the home folder alone or before a separator, and leaves other paths alone", () => {
    expect(expandHome("~", "/home/ann")).toBe("/home/ann");
    expect(expandHome("~/code/app", "/home/ann")).toBe(join("/home/ann", "code/app"));
    expect(expandHome("~/", "/home/ann")).toBe(join("/home/ann", ""));
    expect(expandHome("/srv/~/x", "/home/ann")).toBe("/srv/~/x");
    expect(expandHome("code/~", "/home/ann")).toBe("code/~");
  });

  it("refuses another user's ~name with the reason", () => {
    expect(() => expandHome("~bob/code", "/home/ann")).toThrow("~bob: only your own home folder can be written as ~ (~/code/app); give other folders in full");
  });
});

describe("the page's call", () => {
  let core: Core<never>;
  beforeAll(async () => {
    core = await createCore({
      dataDir,
      homeDir: home,
      launcher: new NodeWorkerLauncher("never-started.js"),
      sessionTransport: "websocket",
      cipher: plaintextDevCipher,
      keepSpare: false,
      openSession: async () => {},
    });
  });
  afterAll(() => core.shutdown());
  const call = (...args: unknown[]) => dispatchAppCall(core.service, "setWorkspace", args);

  it("answers why instead of setting such a folder, and sets it once the user insists", async () => {
    const chat = await core.service.createSession();
    const project = join(elsewhere, "project-link");
    expect(await call(chat.id, `${project}/`)).toEqual({ refused: { folder: join(home, "code", "paddock"), reason: DATA_FOLDER_REASON } });
    expect(await call(chat.id, home)).toEqual({ refused: { folder: home, reason: HOME_FOLDER_REASON } });
    expect(core.index.get(chat.id)?.workspace).toBeUndefined();
    expect((await core.service.getSettings()).recentWorkspaces).toEqual([]);

    expect(await call(chat.id, project, true)).toMatchObject({ id: chat.id, workspace: join(home, "code", "paddock") });
    expect(core.index.get(chat.id)?.workspace).toBe(join(home, "code", "paddock"));
    // A project folder needs no insisting; a bad third argument is refused as any malformed call.
    expect(await call(chat.id, join(home, "code", "other"))).toMatchObject({ workspace: join(home, "code", "other") });
    await expect(call(chat.id, home, "yes")).rejects.toThrow(/setWorkspace: invalid arguments/);
  });

  it("takes ~ and ~/x as the home folder and a folder in it, the guard still asking about ~ itself", async () => {
    const chat = await core.service.createSession();
    expect(await call(chat.id, "~/code/other")).toMatchObject({ workspace: join(home, "code", "other") });
    expect(await call(chat.id, " ~/code/other/src/ ")).toMatchObject({ workspace: join(home, "code", "other", "src") });
    expect(await call(chat.id, "~")).toEqual({ refused: { folder: home, reason: HOME_FOLDER_REASON } });
    expect(await call(chat.id, "~/code/paddock")).toEqual({ refused: { folder: join(home, "code", "paddock"), reason: DATA_FOLDER_REASON } });
    await expect(call(chat.id, "~/code/missing")).rejects.toThrow(`There is no folder at ${join(home, "code", "missing")}`);
    await expect(call(chat.id, "~nobody/x")).rejects.toThrow("~nobody: only your own home folder");
    expect(core.index.get(chat.id)?.workspace).toBe(join(home, "code", "other", "src"));
  });
});
