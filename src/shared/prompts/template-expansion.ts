/**
 * Prompt templates' `/name arg1 arg2` expansion, exactly as pi-coding-agent 1.6.0 does it (a port of its
 * `parseCommandArgs`, `substituteArgs` and `expandPromptTemplate`), so a pi user's templates expand to the same text.
 * Pure: the composer expands a template before the message is sent; main and the workers never see the command.
 */

/** What expansion needs of a template: its command name (the file name without `.md`) and its body. */
export interface ExpandableTemplate {
  name: string;
  content: string;
}

/**
 * Splits a template command's arguments as pi does (bash-like): whitespace separates; a quote opens only at the start
 * of an argument (so `doesn't` stays one word), `""` is an empty argument, a backslash before the open quote's own
 * character keeps it as text, and an unclosed quote is taken as a literal character.
 */
export function parseCommandArgs(argsString: string): string[] {
  const args: string[] = [];
  let current = "";
  let hasToken = false;
  let inQuote: string | null = null;
  let quoteStart = 0;
  for (let i = 0; i < argsString.length; i++) {
    const char = argsString[i];
    if (inQuote) {
      if (char === "\\" && argsString[i + 1] === inQuote) {
        current += inQuote;
        i++;
      } else if (char === inQuote) {
        inQuote = null;
      } else {
        current += char;
      }
    } else if ((char === '"' || char === "'") && !hasToken) {
      inQuote = char;
      quoteStart = i;
      hasToken = true;
    } else if (/\s/.test(char)) {
      if (hasToken) {
        args.push(current);
        current = "";
        hasToken = false;
      }
    } else {
      current += char;
      hasToken = true;
    }
    if (inQuote && i === argsString.length - 1) {
      // Unclosed: the quote is text, and the rest is read again after it (current was empty when it opened).
      inQuote = null;
      current = argsString[quoteStart];
      i = quoteStart;
    }
  }
  if (hasToken) args.push(current);
  return args;
}

/**
 * Fills a template's placeholders: `$1`… (missing: ""), `$@` and `$ARGUMENTS` (all, space-joined), `${N:-default}`,
 * `${@:-default}` / `${ARGUMENTS:-default}` (the default when missing or empty), `${@:N}` and `${@:N:L}` (bash's
 * slices, 1-based; 0 counts as 1). Only the template is scanned: arguments are never substituted into again.
 */
export function substituteArgs(content: string, args: readonly string[]): string {
  const allArgs = args.join(" ");
  return content.replace(
    /\$\{(\d+|ARGUMENTS|@):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$(ARGUMENTS|@|\d+)/g,
    (_match, defaultTarget?: string, defaultValue?: string, sliceStart?: string, sliceLength?: string, simple?: string) => {
      if (defaultTarget) {
        const value = defaultTarget === "@" || defaultTarget === "ARGUMENTS" ? allArgs : args[parseInt(defaultTarget, 10) - 1];
        return value ? value : (defaultValue ?? "");
      }
      if (sliceStart) {
        const start = Math.max(0, parseInt(sliceStart, 10) - 1);
        if (sliceLength) return args.slice(start, start + parseInt(sliceLength, 10)).join(" ");
        return args.slice(start).join(" ");
      }
      if (simple === "ARGUMENTS" || simple === "@") return allArgs;
      return args[parseInt(simple ?? "0", 10) - 1] ?? "";
    },
  );
}

/** The template a message calls (`/name` at its very start, then whitespace or the end), if any. */
export function calledTemplate<T extends ExpandableTemplate>(text: string, templates: readonly T[]): { template: T; argsString: string } | undefined {
  const match = /^\/([^\s]+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return undefined;
  const template = templates.find((t) => t.name === match[1]);
  return template ? { template, argsString: match[2] ?? "" } : undefined;
}

/** The message with its template expanded; the text unchanged when it calls no known template (pi's rule). */
export function expandPromptTemplate(text: string, templates: readonly ExpandableTemplate[]): string {
  const called = calledTemplate(text, templates);
  return called ? substituteArgs(called.template.content, parseCommandArgs(called.argsString)) : text;
}
