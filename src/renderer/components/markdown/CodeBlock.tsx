import { memo, useEffect, useState } from "react";
import { cachedHighlight, highlightCode } from "./highlight";
import { afterNextPaint } from "../../store/frame-coalesced";

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
  const [highlighted, setHighlighted] = useState<{ code: string; lang?: string; html: string | null } | null>(null);
  useEffect(() => {
    if (cached !== undefined) return;
    // After the paint: React runs this effect before it when the render was synchronous (a store update).
    return afterNextPaint(() => setHighlighted({ code, lang, html: highlightCode(code, lang) }));
  }, [cached, code, lang]);
  const html = cached !== undefined ? cached : highlighted?.code === code && highlighted.lang === lang ? highlighted.html : null;
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
