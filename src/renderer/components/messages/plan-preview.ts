/**
 * The plan card's one-line preview of a plan (issue 27 §1): its first line that says something, as words rather
 * than the markdown the model wrote ("## Plan" is a heading, "> " a quote, "**…**" emphasis). A heading that only
 * says "Plan" adds nothing beside the card's own "Plan ready", so the line after it is shown. Pure: Node tests load it.
 */
export function planPreview(plan: string): string {
  const lines = plan.split("\n").map(plainLine).filter((line) => line !== "");
  const first = lines[0] ?? "";
  return /^(the |implementation |proposed )?plan:?$/i.test(first) && lines.length > 1 ? lines[1] : first;
}

/** A line of markdown without its block markers (heading, quote, bullet) and the emphasis around all of it. */
function plainLine(line: string): string {
  let text = line.trim();
  text = text.replace(/^(>\s*)+/, "");
  text = text.replace(/^#{1,6}\s+/, "").replace(/\s+#+\s*$/, "");
  text = text.replace(/^[-*+]\s+/, "");
  const emphasis = /^(\*\*|__|\*|_)(.+)\1(:?)$/.exec(text);
  if (emphasis) text = `${emphasis[2]}${emphasis[3]}`;
  return text.trim();
}
