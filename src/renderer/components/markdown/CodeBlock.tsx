import { memo, useEffect, useState } from "react";
import { cachedHighlight, highlightCode } from "./highlight";

const LINES_PER_CHUNK = 40;

interface CodeBlockProps {
  code: string;
  lang?: string;
  /** True while the model is still writing this block: it stays plain text and cheap to update. */
  open: boolean;
}

/**
 * A fenced code block with a language label and a copy button. Finished blocks are highlighted once (cached),
 * right after the frame that first shows them plain: a chat opening on a long reply paints its text first. An open
 * block is rendered as plain text in fixed-size line chunks so each new token re-renders only the last chunk's
 * text node.
 */
export const CodeBlock = memo(function CodeBlock({ code, lang, open }: CodeBlockProps) {
  const cached = open ? null : cachedHighlight(code, lang);
  const [highlighted, setHighlighted] = useState<{ code: string; html: string | null } | null>(null);
  useEffect(() => {
    if (cached !== undefined) return;
    // A task after this commit: React runs this effect before the paint when the render was synchronous.
    const timer = setTimeout(() => setHighlighted({ code, html: highlightCode(code, lang) }), 0);
    return () => clearTimeout(timer);
  }, [cached, code, lang]);
  const html = cached !== undefined ? cached : highlighted?.code === code ? highlighted.html : null;
  return (
    <div className="md-code">
      <div className="md-code-header">
        <span className="md-code-lang">{lang || "text"}</span>
        <CopyButton text={code} />
      </div>
      <pre>
        {html !== null ? (
          <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <code className="hljs">
            {chunkLines(code).map((chunk, i) => (
              <PlainChunk key={i} text={chunk} />
            ))}
          </code>
        )}
      </pre>
    </div>
  );
});

const PlainChunk = memo(function PlainChunk({ text }: { text: string }) {
  return <>{text}</>;
});

function chunkLines(code: string): string[] {
  const chunks: string[] = [];
  let start = 0;
  let lines = 0;
  for (let i = code.indexOf("\n"); i !== -1; i = code.indexOf("\n", i + 1)) {
    if (++lines === LINES_PER_CHUNK) {
      chunks.push(code.slice(start, i + 1));
      start = i + 1;
      lines = 0;
    }
  }
  chunks.push(code.slice(start));
  return chunks;
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      },
      () => setCopied(false),
    );
  };
  return (
    <button type="button" className="md-code-copy" onClick={copy} aria-label="Copy code">
      {copied ? "Copied" : "Copy"}
    </button>
  );
}
