import { memo } from "react";

/** A unified diff, each line coloured by what it does; headers and hunk markers muted. */
export const DiffView = memo(function DiffView({ diff }: { diff: string }) {
  const lines = diff.replace(/\n$/, "").split("\n");
  return (
    <pre className="tool-pre diff" data-testid="diff">
      {lines.map((line, i) => (
        <span key={i} className={diffClass(line)}>
          {line}
          {"\n"}
        </span>
      ))}
    </pre>
  );
});

function diffClass(line: string): string | undefined {
  if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("@@") || line.startsWith("Index:") || line.startsWith("===")) return "diff-meta";
  if (line.startsWith("+")) return "diff-add";
  if (line.startsWith("-")) return "diff-del";
  return undefined;
}
