/**
 * How a sandboxed command's network question reads in the chat: the program and the host it wants
 * ("npm wants registry.npmjs.org"). The sandbox's proxy knows only the connection, so the program is read from the
 * command line of the command running (sandbox.ts).
 */

/**
 * What a network question says: "npm wants registry.npmjs.org" (the program of the command running; `cd x && npm i`
 * names npm), or with several commands running, each of them.
 */
export function networkSummary(request: { host: string; port?: number | undefined; commands: { command: string }[] }): string {
  const where = request.port === undefined || request.port === 443 || request.port === 80 ? request.host : `${request.host}:${request.port}`;
  const programs = [...new Set(request.commands.map((c) => programOf(c.command)))];
  const who = programs.length === 0 ? "A command" : programs.join(" or ");
  return `${who} wants ${where}`;
}

/** The program a command line runs, past `cd …`, variable assignments and launchers that only set up its run. */
function programOf(command: string): string {
  const parts = command.split(/&&|\|\||;|\||\n/);
  for (const part of parts) {
    const words = part.trim().split(/\s+/).filter((w) => w !== "" && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    const first = words[0];
    if (!first || ["cd", "export", "set", "source", "."].includes(first)) continue;
    const program = ["sudo", "env", "time", "nice", "nohup", "exec"].includes(first) && words[1] ? words[1] : first;
    return program.split("/").pop() || program;
  }
  return command.trim().split(/\s+/)[0] || "A command";
}
