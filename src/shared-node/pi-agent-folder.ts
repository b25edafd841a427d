import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/**
 * pi's user folder (`~/.pi/agent`), where a pi user keeps agents, skills, prompt templates and `models.json`. Like
 * pi-coding-agent's `getAgentDir()`, `PI_CODING_AGENT_DIR` moves it (a leading `~` means the home folder); otherwise
 * it is `<homeDir>/.pi/agent`. Paddock only reads from it: everything Paddock writes lives in its own data folder.
 */
export function piAgentFolder(options: { homeDir?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const home = options.homeDir ?? homedir();
  const moved = (options.env ?? process.env).PI_CODING_AGENT_DIR?.trim();
  if (!moved) return join(home, ".pi", "agent");
  if (moved === "~") return home;
  if (moved.startsWith("~/")) return join(home, moved.slice(2));
  return isAbsolute(moved) ? moved : resolve(moved);
}
