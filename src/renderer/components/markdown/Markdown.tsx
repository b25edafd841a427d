import { memo, useRef } from "react";
import type { Token, Tokens } from "marked";
import { CodeBlock } from "./CodeBlock";
import { Inline } from "./Inline";
import { finishedChunks, IncrementalBlocks } from "./blocks";

interface MarkdownProps {
  text: string;
  /** True while the text is still growing: blocks are split incrementally and the last one is treated as open. */
  streaming?: boolean;
}

/**
 * Markdown for chat messages. While streaming, completed blocks keep their token identity and their memoized
 * components are skipped, so a new token re-renders only the block being written. The last block counts as open
 * (a code block in it stays plain) only while `streaming` is true.
 *
 * Blocks render in fixed groups (`.md-chunk`, see BLOCKS_PER_CHUNK): React compares one prop per finished group,
 * and the browser lays out and paints only the groups on screen, so a 100k-character reply streams as cheaply at
 * its end as at its start.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: MarkdownProps) {
  const incremental = useRef<IncrementalBlocks | null>(null);
  let chunks: readonly (readonly Token[])[];
  if (streaming) incremental.current ??= new IncrementalBlocks();
  // A reply that streamed here keeps its incremental blocks when it ends: lexing a long reply again in one go,
  // and re-rendering every block with new tokens, would be a long task right at the end of the stream.
  if (incremental.current) {
    incremental.current.update(text);
    chunks = incremental.current.chunks();
  } else chunks = finishedChunks(text);
  const last = chunks.length - 1;
  return (
    <div className="md">
      {chunks.map((blocks, i) => (
        <Chunk key={i} blocks={blocks} openLast={streaming && i === last} />
      ))}
    </div>
  );
});

const Chunk = memo(function Chunk({ blocks, openLast }: { blocks: readonly Token[]; openLast: boolean }) {
  const last = blocks.length - 1;
  return (
    // `auto` remembers the size the group last rendered at; the estimate only serves groups never yet on screen.
    <div className="md-chunk" style={{ containIntrinsicSize: `auto ${estimateHeight(blocks)}px` }}>
      {blocks.map((block, i) => (
        <Block key={i} token={block} open={openLast && i === last} />
      ))}
    </div>
  );
});

/** A rough height for blocks never rendered yet: about 90 characters per 26px line, code at 21px per line. */
function estimateHeight(blocks: readonly Token[]): number {
  let px = 0;
  for (const block of blocks) {
    if (block.type === "space") continue;
    if (block.type === "code") px += 56 + 21 * (block as Tokens.Code).text.split("\n").length;
    else px += 16 + 26 * Math.ceil(block.raw.length / 90);
  }
  return px;
}

const Block = memo(function Block({ token, open }: { token: Token; open: boolean }) {
  return <BlockToken token={token} open={open} />;
});

function BlockToken({ token, open }: { token: Token; open: boolean }) {
  switch (token.type) {
    case "space":
    case "def":
      return null;
    case "paragraph":
      return <p><Inline tokens={(token as Tokens.Paragraph).tokens} /></p>;
    case "heading": {
      const heading = token as Tokens.Heading;
      const Tag = `h${Math.min(Math.max(heading.depth, 1), 6)}` as "h1";
      return <Tag><Inline tokens={heading.tokens} /></Tag>;
    }
    case "code": {
      const code = token as Tokens.Code;
      return <CodeBlock code={code.text} lang={code.lang} open={open} />;
    }
    case "blockquote":
      return (
        <blockquote>
          {(token as Tokens.Blockquote).tokens.map((t, i) => <BlockToken key={i} token={t} open={false} />)}
        </blockquote>
      );
    case "list":
      return <List list={token as Tokens.List} />;
    case "table":
      return <Table table={token as Tokens.Table} />;
    case "hr":
      return <hr />;
    case "html":
      return <p className="md-html">{(token as Tokens.HTML).text}</p>;
    case "text": {
      const text = token as Tokens.Text;
      return <p><Inline tokens={text.tokens ?? [text]} /></p>;
    }
    default:
      return <p>{token.raw}</p>;
  }
}

function List({ list }: { list: Tokens.List }) {
  const items = list.items.map((item, i) => (
    <li key={i} className={item.task ? "md-task" : undefined}>
      {item.tokens.map((t, j) =>
        // Tight lists wrap item text in "text" tokens that must not become paragraphs.
        t.type === "text" && !item.loose ? <Inline key={j} tokens={(t as Tokens.Text).tokens ?? [t]} /> :
        t.type === "checkbox" ? <Inline key={j} tokens={[t]} /> :
        <BlockToken key={j} token={t} open={false} />,
      )}
    </li>
  ));
  return list.ordered ? <ol start={list.start === "" ? undefined : list.start}>{items}</ol> : <ul>{items}</ul>;
}

function Table({ table }: { table: Tokens.Table }) {
  return (
    <div className="md-table-wrap">
      <table>
        <thead>
          <tr>
            {table.header.map((cell, i) => (
              <th key={i} style={{ textAlign: cell.align ?? undefined }}><Inline tokens={cell.tokens} /></th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, i) => (
                <td key={i} style={{ textAlign: cell.align ?? undefined }}><Inline tokens={cell.tokens} /></td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
