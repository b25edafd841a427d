/** Scenarios run by pi-coding-agent 1.6.0 (recorded once by record.ts into pi-1.6.0.json) and by our tools (pi-compat.test.ts). */
export interface Scenario {
  name: string;
  tool: string;
  files: Record<string, string | Uint8Array>;
  params: Record<string, unknown>;
  after?: string;
  /** bash only: the shell command prefix setting (pi's `shellCommandPrefix`), put before the command. */
  commandPrefix?: string;
}

/** A 2x2 24-bit BMP (BITMAPINFOHEADER), rows bottom-up and padded to 4 bytes: red, green / blue, white. */
function bmp2x2(): Uint8Array {
  const rows = [
    [0xff, 0x00, 0x00, 0xff, 0xff, 0xff, 0x00, 0x00], // bottom row (BGR): blue, white, padding
    [0x00, 0x00, 0xff, 0x00, 0xff, 0x00, 0x00, 0x00], // top row: red, green, padding
  ].flat();
  const header = Buffer.alloc(54);
  header.write("BM", 0, "latin1");
  header.writeUInt32LE(54 + rows.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(2, 18);
  header.writeInt32LE(2, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(rows.length, 34);
  return new Uint8Array([...header, ...rows]);
}

const lines = (count: number, make = (i: number) => `line ${i}`) => Array.from({ length: count }, (_, i) => make(i + 1)).join("\n");
export const scenarios: Scenario[] = [
  { name: "read: 2,000-line limit", tool: "read", files: { "long.txt": lines(2500) }, params: { path: "long.txt" } },
  { name: "read: 50 KB limit", tool: "read", files: { "wide.txt": lines(1000, (i) => `${i}:${"x".repeat(97)}`) }, params: { path: "wide.txt" } },
  { name: "read: offset and limit", tool: "read", files: { "long.txt": lines(2500) }, params: { path: "long.txt", offset: 10, limit: 3 } },
  { name: "read: limit past the end", tool: "read", files: { "long.txt": lines(2500) }, params: { path: "long.txt", offset: 2499, limit: 5 } },
  { name: "read: continue to the end", tool: "read", files: { "long.txt": lines(2500) }, params: { path: "long.txt", offset: 2001 } },
  { name: "read: final newline", tool: "read", files: { "t.txt": `${lines(2001)}\n` }, params: { path: "t.txt" } },
  { name: "read: offset beyond the end", tool: "read", files: { "a.txt": "one\ntwo" }, params: { path: "a.txt", offset: 5 } },
  { name: "read: first line over 50 KB", tool: "read", files: { "min.js": `${"x".repeat(60 * 1024)}\nsecond` }, params: { path: "min.js" } },
  { name: "read: CRLF and UTF-8", tool: "read", files: { "w.txt": "héllo\r\nwörld ✓\r\n" }, params: { path: "w.txt" } },
  { name: "read: empty file", tool: "read", files: { "e.txt": "" }, params: { path: "e.txt" } },
  { name: "read: BMP image", tool: "read", files: { "pic.bmp": bmp2x2() }, params: { path: "pic.bmp" } },
  { name: "read: BMP by its bytes, not its name", tool: "read", files: { "pic.dat": bmp2x2() }, params: { path: "pic.dat" } },
  { name: "ls: sorted, folders marked", tool: "ls", files: { "b.txt": "", "A.txt": "", ".env": "", "dir/x": "" }, params: {} },
  { name: "ls: entry limit", tool: "ls", files: Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`f${i}`, ""])), params: { limit: 5 } },
  { name: "ls: empty folder", tool: "ls", files: { "empty/.keep": "" }, params: { path: "empty", limit: 0 } },
  { name: "ls: limit 0 means 1", tool: "ls", files: { "a": "", "b": "" }, params: { limit: 0 } },
  { name: "ls: negative limit means 1", tool: "ls", files: { "a": "", "b": "" }, params: { limit: -3 } },
  { name: "ls: fractional limit rounds down", tool: "ls", files: { "a": "", "b": "", "c": "" }, params: { limit: 2.7 } },
  { name: "grep: context", tool: "grep", files: { "c.txt": "1\n2\nhit\n4\n5\n" }, params: { pattern: "hit", context: 1 } },
  {
    name: "grep: match limit with context",
    tool: "grep",
    files: { "m.txt": lines(20, (i) => (i % 4 === 1 ? `hit ${i}` : `ctx ${i}`)) },
    params: { pattern: "hit", limit: 2, context: 1 },
  },
  { name: "grep: long line", tool: "grep", files: { "long.txt": `hit ${"y".repeat(600)}\n` }, params: { pattern: "hit" } },
  { name: "grep: file as path, ignoreCase, literal", tool: "grep", files: { "n.md": "NEEDLE (a+b)\nother\n" }, params: { pattern: "needle (a", path: "n.md", ignoreCase: true, literal: true } },
  { name: "grep: nothing", tool: "grep", files: { "a.txt": "x\n" }, params: { pattern: "nothing-here" } },
  {
    name: "grep: path glob relative to path",
    tool: "grep",
    files: { "lib/src/a.ts": "hit\n", "lib/pkg/src/b.ts": "hit\n", "lib/src/c.js": "hit\n" },
    params: { pattern: "hit", path: "lib", glob: "src/*.ts" },
  },
  { name: "grep: name glob at any depth", tool: "grep", files: { "lib/src/a.ts": "hit\n", "lib/b.ts": "hit\n", "lib/c.js": "hit\n" }, params: { pattern: "hit", path: "lib", glob: "*.ts" } },
  { name: "grep: glob with ./", tool: "grep", files: { "src/a.ts": "hit\n", "b.ts": "hit\n" }, params: { pattern: "hit", glob: "./src/*.ts" } },
  { name: "grep: exactly the limit", tool: "grep", files: { "a.txt": "hit\nhit\n" }, params: { pattern: "hit", limit: 2 } },
  { name: "ls: exactly the limit", tool: "ls", files: { "a": "", "b": "" }, params: { limit: 2 } },
  { name: "grep: limit 0 means 1", tool: "grep", files: { "a.txt": "hit\nhit\n" }, params: { pattern: "hit", limit: 0 } },
  { name: "write: creates folders", tool: "write", files: {}, params: { path: "a/b/c.txt", content: "hello\n" }, after: "a/b/c.txt" },
  { name: "write: overwrites, multi-byte", tool: "write", files: { "w.txt": "old" }, params: { path: "w.txt", content: "héllo ✓\n" }, after: "w.txt" },
  { name: "edit: one block", tool: "edit", files: { "f.txt": "a\nb\nc\n" }, params: { path: "f.txt", edits: [{ oldText: "b", newText: "B" }] }, after: "f.txt" },
  {
    name: "edit: several blocks and context",
    tool: "edit",
    files: { "f.txt": lines(30) + "\n" },
    params: { path: "f.txt", edits: [{ oldText: "line 3\n", newText: "line three\n" }, { oldText: "line 20\nline 21", newText: "twenty" }] },
    after: "f.txt",
  },
  { name: "edit: legacy form", tool: "edit", files: { "f.txt": "x = 1\n" }, params: { path: "f.txt", oldText: "1", newText: "2" }, after: "f.txt" },
  { name: "edit: edits as one object", tool: "edit", files: { "f.txt": "x = 1\n" }, params: { path: "f.txt", edits: { oldText: "1", newText: "2" } }, after: "f.txt" },
  {
    name: "edit: edits as a JSON string",
    tool: "edit",
    files: { "f.txt": "a\nb\n" },
    params: { path: "f.txt", edits: JSON.stringify([{ oldText: "a", newText: "A" }, { oldText: "b", newText: "B" }]) },
    after: "f.txt",
  },
  {
    name: "edit: top-level pair beside edits[]",
    tool: "edit",
    files: { "f.txt": "a\nb\n" },
    params: { path: "f.txt", edits: [{ oldText: "a", newText: "A" }], oldText: "b", newText: "B" },
    after: "f.txt",
  },
  { name: "edit: empty edits[]", tool: "edit", files: { "f.txt": "a\n" }, params: { path: "f.txt", edits: [] }, after: "f.txt" },
  { name: "edit: normalised quotes", tool: "edit", files: { "f.txt": "say(\u2018hi\u2019)\nend\n" }, params: { path: "f.txt", edits: [{ oldText: "say('hi')", newText: "say('bye')" }] }, after: "f.txt" },
  { name: "edit: CRLF", tool: "edit", files: { "f.txt": "first\r\nsecond\r\nthird\r\n" }, params: { path: "f.txt", edits: [{ oldText: "second\nthird", newText: "2nd\n3rd" }] }, after: "f.txt" },
  { name: "edit: not found", tool: "edit", files: { "f.txt": "foo\n" }, params: { path: "f.txt", edits: [{ oldText: "nope", newText: "x" }] } },
  { name: "edit: not found among several", tool: "edit", files: { "f.txt": "foo\n" }, params: { path: "f.txt", edits: [{ oldText: "foo", newText: "x" }, { oldText: "nope", newText: "y" }] } },
  { name: "edit: ambiguous", tool: "edit", files: { "f.txt": "foo\nfoo\n" }, params: { path: "f.txt", edits: [{ oldText: "foo", newText: "x" }] } },
  { name: "edit: empty oldText", tool: "edit", files: { "f.txt": "foo\n" }, params: { path: "f.txt", edits: [{ oldText: "", newText: "x" }] } },
  { name: "edit: overlap", tool: "edit", files: { "f.txt": "bar baz\n" }, params: { path: "f.txt", edits: [{ oldText: "bar baz", newText: "x" }, { oldText: "baz", newText: "y" }] } },
  { name: "edit: no change", tool: "edit", files: { "f.txt": "same\n" }, params: { path: "f.txt", edits: [{ oldText: "same", newText: "same" }] } },
  { name: "bash: output", tool: "bash", files: {}, params: { command: "echo hi; echo there" } },
  { name: "bash: no output", tool: "bash", files: {}, params: { command: "true" } },
  { name: "bash: exit code", tool: "bash", files: {}, params: { command: "echo partial; exit 3" } },
  { name: "bash: exit code, no output", tool: "bash", files: {}, params: { command: "exit 4" } },
  { name: "bash: killed by a signal", tool: "bash", files: {}, params: { command: "echo before; kill -KILL $$" } },
  { name: "bash: zero timeout", tool: "bash", files: {}, params: { command: "echo hi", timeout: 0 } },
  { name: "bash: negative timeout", tool: "bash", files: {}, params: { command: "echo hi", timeout: -1 } },
  {
    name: "bash: command prefix",
    tool: "bash",
    files: {},
    params: { command: "greet" },
    commandPrefix: "shopt -s expand_aliases\nalias greet='echo hello from an alias'",
  },
  { name: "bash: stderr and stdout", tool: "bash", files: {}, params: { command: "echo out; echo err >&2" } },
  { name: "bash: line limit", tool: "bash", files: {}, params: { command: "seq 1 3000" } },
  { name: "bash: byte limit", tool: "bash", files: {}, params: { command: "for i in $(seq 1 1000); do printf '%099d\\n' $i; done" } },
  { name: "bash: one long line", tool: "bash", files: {}, params: { command: "head -c 100000 /dev/zero | tr '\\0' x" } },
  { name: "bash: timeout", tool: "bash", files: {}, params: { command: "echo started; sleep 5", timeout: 0.5 } },
];

/** pi's system prompt inputs (buildSystemPrompt's options): recorded section by section, compared in system-prompt.test.ts. */
export interface PromptScenario {
  name: string;
  options: {
    customPrompt?: string;
    selectedTools?: string[];
    toolSnippets?: Record<string, string>;
    toolGuidelines?: Record<string, string[]>;
    promptGuidelines?: string[];
    cwd: string;
    contextFiles?: { path: string; content: string }[];
  };
}

const workspaceTools = ["read", "bash", "edit", "write", "grep", "find", "ls"];
export const promptScenarios: PromptScenario[] = [
  { name: "default tools, no context", options: { cwd: "/work/project" } },
  { name: "all workspace tools, context files", options: { selectedTools: workspaceTools, cwd: "/work/project", contextFiles: [{ path: "/work/AGENTS.md", content: "Use tabs." }, { path: "/work/project/AGENTS.override.md", content: "Use spaces." }] } },
  { name: "bash alone", options: { selectedTools: ["bash"], cwd: "/work/project" } },
  { name: "custom prompt", options: { customPrompt: "You review code.", selectedTools: workspaceTools, cwd: "/work/project" } },
];
