/**
 * Files in the workspace that something runs outside the sandbox later: git's hooks and config, shell start-up
 * files, editor and agent folders. The sandbox makes them read-only to commands (bash gets "Read-only file system");
 * `write` and `edit` run in the worker, not in the sandbox, so they ask before each change of one instead, with no
 * "allow for this chat" and whatever Settings say (the gate: session-host.ts; the tools check again as they write).
 *
 * The list mirrors @anthropic-ai/sandbox-runtime 0.0.83, which does not export it: `DANGEROUS_FILES` and
 * `getDangerousDirectories()` in dist/sandbox/sandbox-utils.js, plus `.git/hooks`, `.git/config` (we never set
 * `allowGitConfig`) and a `.git` that is a file, from `linuxGetCwdMandatoryDenyPaths` in linux-sandbox-utils.js.
 * test/unit/agent-worker/tools/workspace/protected-paths.test.ts compares the two, so an upgrade that changes the runtime's list fails
 * until this one follows. Unlike the runtime (three folders deep on Linux), names count at any depth here.
 */

/** Files protected wherever they are, by name, and why (the runtime's DANGEROUS_FILES). */
export const PROTECTED_FILES: Readonly<Record<string, string>> = {
  ".gitconfig": "git runs the programs it names outside the sandbox later (git config)",
  ".gitmodules": "git fetches and checks out what it names outside the sandbox later (git submodules)",
  ".bashrc": "your shell runs it outside the sandbox when it starts (shell start-up file)",
  ".bash_profile": "your shell runs it outside the sandbox when it starts (shell start-up file)",
  ".zshrc": "your shell runs it outside the sandbox when it starts (shell start-up file)",
  ".zprofile": "your shell runs it outside the sandbox when it starts (shell start-up file)",
  ".profile": "your shell runs it outside the sandbox when it starts (shell start-up file)",
  ".ripgreprc": "ripgrep takes options from it, which can run a program on every file (ripgrep config)",
  ".mcp.json": "it names MCP servers, programs that run outside the sandbox (MCP config)",
};

/**
 * Folders (and the files in them) protected wherever they are, and why: the runtime's dangerous directories
 * (`.git` aside), `.git/hooks` and `.git/config`.
 */
export const PROTECTED_FOLDERS: Readonly<Record<string, string>> = {
  ".vscode": "the editor runs the tasks and settings in it outside the sandbox (editor settings)",
  ".idea": "the editor runs the tasks and settings in it outside the sandbox (editor settings)",
  ".claude/commands": "coding agents run what it says outside the sandbox (agent commands)",
  ".claude/agents": "coding agents run what it says outside the sandbox (agent definitions)",
  ".git/hooks": "it runs outside the sandbox later (git hooks)",
  ".git/config": "git runs the programs it names outside the sandbox later (git config)",
};

/** A file named `.git` points git at a repository, and so at its hooks and config (the runtime protects one). */
const GIT_FILE = "it tells git which repository to use, and so which hooks and config run outside the sandbox (git link)";

/**
 * Why a change of `relative` (a path inside the workspace, relative to it, "/"-separated: a real path, judged after
 * the path gate resolved it) must be asked about every time, naming what is protected; undefined for any other
 * path. Names compare as a case-insensitive file system (macOS, Windows) would find them.
 */
export function protectionOf(relative: string): string | undefined {
  const spelled = relative.split("/").filter((s) => s !== "" && s !== ".");
  const names = spelled.map(comparable);
  for (let i = 0; i < names.length; i++) {
    for (const [folder, why] of Object.entries(PROTECTED_FOLDERS)) {
      const parts = folder.split("/");
      if (parts.every((part, k) => names[i + k] === part)) return `${spelled.slice(0, i + parts.length).join("/")} is protected: ${why}`;
    }
  }
  const last = names.at(-1);
  if (last === undefined) return undefined;
  const why = Object.hasOwn(PROTECTED_FILES, last) ? PROTECTED_FILES[last] : last === ".git" ? GIT_FILE : undefined;
  return why === undefined ? undefined : `${spelled.join("/")} is protected: ${why}`;
}

/**
 * A name as file systems that fold it would find it: lower case; without the invisible characters HFS+ ignores
 * (git checks `.git` the same way); without Windows' trailing dots and spaces and an NTFS stream suffix (`config::$DATA`).
 * On a file system that keeps these apart, a few more names ask: nothing is let through.
 */
function comparable(name: string): string {
  return name
    .toLowerCase()
    .replace(/[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g, "")
    .replace(/:.*$/, "")
    .replace(/[. ]+$/, "");
}
