/**
 * "Allowed in this project" as main keeps it (project-grants.ts): one file keyed by the folder's real path. A
 * project grant runs things without asking in every chat of the folder, so a crafted file must grant nothing, and a
 * folder's grants must never apply to another folder.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_FILE_BYTES, PROJECT_GRANTS_FILE, ProjectGrants } from "../../../../src/main/broker/project-grants";
import { Fifos } from "../../../../testkit/fifos";
import { TempFolders } from "../../../../testkit/temp-folders";

const temp = new TempFolders("paddock-grants-");
const fifos = new Fifos();
afterEach(() => {
  fifos.releaseAll();
  temp.removeAll();
});

const file = (data: string) => join(data, PROJECT_GRANTS_FILE);
const valid = (folder: string, grants: string[]) => JSON.stringify({ version: 1, projects: { [folder]: grants } });

describe("project grants", () => {
  it("are kept by real path, survive a restart, and tell listeners of each change", async () => {
    const data = temp.make();
    const project = temp.make();
    const { grants, notice } = await ProjectGrants.open(file(data));
    expect(notice).toBeUndefined();
    const changes: [string, string[]][] = [];
    grants.onChange((folder, list) => changes.push([folder, list]));
    await grants.add(project, "bash=npm run build");
    await grants.add(project, "net:registry.npmjs.org");
    await grants.add(project, "net:registry.npmjs.org");
    expect(changes).toEqual([
      [project, ["bash=npm run build"]],
      [project, ["bash=npm run build", "net:registry.npmjs.org"]],
    ]);
    const again = (await ProjectGrants.open(file(data))).grants;
    expect(again.of(project)).toEqual(["bash=npm run build", "net:registry.npmjs.org"]);
    expect(again.view(project).projects[0].grants).toEqual([
      { grant: "bash=npm run build", kind: "command", label: "npm run build" },
      { grant: "net:registry.npmjs.org", kind: "network", label: "registry.npmjs.org" },
    ]);
    expect(await again.remove(project, "bash=npm run build")).toBe(true);
    expect(await again.remove(project, "bash=npm run build")).toBe(false);
    expect((await ProjectGrants.open(file(data))).grants.of(project)).toEqual(["net:registry.npmjs.org"]);
  });

  it("refuse to keep a prefix or anything but the gate's exact shapes", async () => {
    const { grants } = await ProjectGrants.open(file(temp.make()));
    for (const grant of ["bash:npm", "bash:ls", "net:*.example.org", "net:a.org:443", "bash=a\nb", "shell:ls", "tool:"]) {
      await expect(grants.add("/p", grant), grant).rejects.toThrow(/cannot be allowed for a project/);
    }
  });

  it("a grant for folder A never applies in folder B: not a subfolder, a sibling sharing its prefix, or a link now leading elsewhere", async () => {
    const data = temp.make();
    const root = temp.make();
    const a = join(root, "app");
    mkdirSync(join(a, "sub"), { recursive: true });
    mkdirSync(join(root, "app-evil"));
    const b = join(root, "other");
    mkdirSync(b);
    const { grants } = await ProjectGrants.open(file(data));
    await grants.add(a, "tool:edit");
    expect((await grants.forWorkspace(a)).grants).toEqual(["tool:edit"]);
    expect((await grants.forWorkspace(join(a, "sub"))).grants).toEqual([]);
    expect((await grants.forWorkspace(join(root, "app-evil"))).grants).toEqual([]);
    // A link to A is A (its real path); A moved away and replaced by a link to B is B, with none of A's grants.
    symlinkSync(a, join(root, "link-to-a"));
    expect((await grants.forWorkspace(join(root, "link-to-a"))).grants).toEqual(["tool:edit"]);
    renameSync(a, join(root, "moved"));
    symlinkSync(b, a);
    expect(await grants.forWorkspace(a)).toEqual({ folder: b, grants: [] });
  });

  describe("a crafted file grants nothing, and the user is told", () => {
    it("a symbolic link to a file that would grant (not followed, and never written through)", async () => {
      const data = temp.make();
      const elsewhere = join(temp.make(), "grants.json");
      writeFileSync(elsewhere, valid("/p", ["tool:bash"]));
      symlinkSync(elsewhere, file(data));
      const { grants, notice } = await ProjectGrants.open(file(data));
      expect(grants.of("/p")).toEqual([]);
      expect(notice?.text).toMatch(/symbolic link.*no project grants apply/);
      await grants.add("/q", "tool:edit");
      expect(readFileSync(elsewhere, "utf8")).toBe(valid("/p", ["tool:bash"]));
    });

    it("a FIFO (never opened: the read would block)", async () => {
      const data = temp.make();
      fifos.make(file(data));
      const { grants, notice } = await ProjectGrants.open(file(data));
      expect(grants.of("/p")).toEqual([]);
      expect(notice?.text).toMatch(/FIFO/);
    });

    it("a huge file", async () => {
      const data = temp.make();
      writeFileSync(file(data), valid("/p", ["tool:bash"]).replace("{", `{"pad":"${"x".repeat(MAX_FILE_BYTES)}",`));
      const { grants, notice } = await ProjectGrants.open(file(data));
      expect(grants.of("/p")).toEqual([]);
      expect(notice?.text).toMatch(/larger than/);
    });

    it("wrong types, prefix grants, relative or unnormalised keys, a newer version: set aside whole, bytes kept", async () => {
      for (const text of [
        JSON.stringify({ version: 1, projects: { "/p": "tool:bash" } }),
        JSON.stringify({ version: 1, projects: { "/p": [42] } }),
        JSON.stringify({ version: 1, projects: { "/p": ["bash:npm"] } }),
        JSON.stringify({ version: 1, projects: { "/p": ["tool:edit"], "p/../q": ["tool:bash"] } }),
        JSON.stringify({ version: 1, projects: { "/p/": ["tool:bash"] } }),
        JSON.stringify({ version: 2, projects: { "/p": ["tool:bash"] } }),
        JSON.stringify({ version: 1, projects: { "/p": ["tool:bash"] }, extra: true }),
        JSON.stringify([]),
        "{not json",
      ]) {
        const data = temp.make();
        writeFileSync(file(data), text);
        const { grants, notice } = await ProjectGrants.open(file(data));
        expect(grants.of("/p"), text).toEqual([]);
        expect(notice?.text, text).toMatch(/no project grants apply/);
        const aside = readdirSync(data).find((name) => name.startsWith("project-grants.corrupt-"));
        expect(aside, text).toBeDefined();
        expect(readFileSync(join(data, aside!), "utf8")).toBe(text);
      }
    });

    it("a folder in the file's place", async () => {
      const data = temp.make();
      mkdirSync(file(data));
      const { grants, notice } = await ProjectGrants.open(file(data));
      expect(grants.of("/p")).toEqual([]);
      expect(notice?.text).toMatch(/folder/);
      expect(existsSync(file(data))).toBe(true);
    });
  });
});
