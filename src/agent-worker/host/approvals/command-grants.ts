/**
 * What "allow for this chat" (or "for this project") covers for a shell command, and how its button says so: exactly
 * the command it is now (`npm run build`, `sed -n 1p notes.txt`, nothing else), shown as itself. No grant is ever
 * made by a command's first words, because arguments can hide a whole other command behind an innocent first word:
 *   - interpreters and editors run what they are given: sed (`1e touch x`, `w file`), awk (`system()`), perl,
 *     python, node, ruby, sh, bash, zsh, ed, vim;
 *   - launchers run their arguments: env, xargs, timeout, nice, nohup, stdbuf, setsid, time, watch, sudo, doas,
 *     strace, flock, parallel;
 *   - options that run programs: `find -exec`, `tar --checkpoint-action=exec=…`, `git grep -O…`, `git -c …`,
 *     `rg --pre`, `sort --compress-program`, `rsync -e`, `zip -TT`, `less`'s `!`, `man -P`;
 *   - build tools and package managers run the project's own code by name: npm, npx, pnpm, yarn, bun, make,
 *     cargo, go, gradle, mvn, pip, uv (`npm run x` is whatever the package says x is);
 *   - programs that delete or change what they are pointed at: rm, rmdir, mv, cp, dd, chmod, chown, ln, truncate,
 *     `find -delete`, `tree -o`, `file -C`, `uniq in out`, `sort -o`, `git clean`, `git checkout`;
 *   - programs that reach elsewhere: ssh, scp, curl, wget, docker, kubectl.
 * Earlier versions granted the programs in ANY_ARGUMENTS with any arguments ("ls …"); such grants in an older
 * transcript still match those programs (`legacyCommandGrant`), and no new one is made.
 */
import { MAX_EXACT_GRANT } from "../../../shared-node/session-files/grant-format";

/**
 * Programs an older chat may have allowed with any arguments (`bash:ls`). Each reads files or the system's state and prints what it found:
 * no option of theirs runs another program, writes a file or deletes one (GNU coreutils, grep, diff, jq).
 */
const ANY_ARGUMENTS: ReadonlySet<string> = new Set([
  "ls", "cat", "head", "tail", "wc", "pwd", "echo", "printf", "stat", "du", "df", "which", "whoami", "id", "uname",
  "date", "basename", "dirname", "realpath", "readlink", "grep", "egrep", "fgrep", "cut", "nl", "od", "hexdump",
  "cmp", "diff", "md5sum", "sha1sum", "sha256sum", "sha512sum", "seq", "tac", "rev", "fold", "column", "tr",
  "printenv", "true", "false", "jq",
]);

/**
 * The grant "allow for this chat" (or project) would make for a shell command: `bash=<command>` (exactly this
 * command), or undefined when only this call can be allowed: a command that chains, pipes, substitutes or redirects
 * could do anything behind an innocent first word.
 */
export function commandGrant(command: string): string | undefined {
  const trimmed = command.trim();
  if (!isSimpleCommand(trimmed)) return undefined;
  return trimmed.length <= MAX_EXACT_GRANT ? `bash=${trimmed}` : undefined;
}

/** The grant an older version made for this command (`bash:ls`, a harmless program with any arguments), if any. */
export function legacyCommandGrant(command: string): string | undefined {
  const trimmed = command.trim();
  if (!isSimpleCommand(trimmed)) return undefined;
  const program = trimmed.split(/\s+/)[0];
  return ANY_ARGUMENTS.has(program) ? `bash:${program}` : undefined;
}

/** One program and its arguments, with nothing the shell would treat as a second command, a redirection or an expansion. */
function isSimpleCommand(command: string): boolean {
  return command !== "" && !/[;&|<>`$(){}\n\r\\]/.test(command) && /^[A-Za-z0-9_./-]+$/.test(command.split(/\s+/)[0]);
}

/** A shell grant as its button shows it: the exact command. Undefined: not a shell grant. */
export function describeCommandGrant(grant: string): string | undefined {
  return grant.startsWith("bash=") ? grant.slice(5) : undefined;
}
