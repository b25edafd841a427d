import { memo, useContext, useEffect, useRef, useState } from "react";
import type { Token, Tokens } from "marked";
import { CodeBlock } from "./CodeBlock";
import { Inline } from "./Inline";
import { estimateTextHeight, finishedChunks, firstPaintSplit, IncrementalBlocks, isLexed } from "./blocks";
import { ScrollRoot } from "../common/scroll-root";

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
 * its end as at its start. A long text shown for the first time (a chat opened on a long reply) renders its last
 * groups at once, the ones a chat opened at the bottom shows, and the others as they near the screen or when the
 * page is idle: the first paint does not wait for parts nobody sees yet.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: MarkdownProps) {
  // Fixed at the first render: a long text shows its tail first and its head once lexed (see firstPaintSplit).
  // A text lexed before (a row scrolled back into view) has nothing to gain from waiting.
  const [firstHead] = useState(() => (isLexed(text) ? "" : text.slice(0, firstPaintSplit(text))));
  const [headShown, setHeadShown] = useState(false);
  const incremental = useRef<IncrementalBlocks | null>(null);
  // A text only grows at its end; should it ever change before the cut, it is shown whole.
  const head = firstHead && text.startsWith(firstHead) ? firstHead : "";
  const body = text.slice(head.length);
  let chunks: readonly (readonly Token[])[];
  if (streaming) incremental.current ??= new IncrementalBlocks();
  // A reply that streamed here keeps its incremental blocks when it ends: lexing a long reply again in one go,
  // and re-rendering every block with new tokens, would be a long task right at the end of the stream.
  if (incremental.current) {
    incremental.current.update(body);
    chunks = incremental.current.chunks();
  } else chunks = finishedChunks(body);
  const last = chunks.length - 1;
  return (
    <div className="md">
      {head ? (headShown ? <Head text={head} /> : <HeadPlaceholder text={head} onNear={() => setHeadShown(true)} />) : null}
      {chunks.map((blocks, i) => (
        <Chunk key={i} blocks={blocks} openLast={streaming && i === last} eager={i > last - EAGER_TAIL_CHUNKS} />
      ))}
    </div>
  );
});

/** The head of a long text, lexed once it is wanted; final (a text only grows at its end). */
const Head = memo(function Head({ text }: { text: string }) {
  return finishedChunks(text).map((blocks, i) => <Chunk key={`h${i}`} blocks={blocks} openLast={false} eager={false} />);
});

/** Room for a head not lexed yet, at an estimated height; asks for it when it nears the screen or the page idles. */
function HeadPlaceholder({ text, onNear }: { text: string; onNear(): void }) {
  const box = useNearScreen(onNear);
  return <div ref={box} className="md-chunk" style={{ height: estimateTextHeight(text) }} />;
}

/** Groups at the end of a text that render with it; the others wait until they near the screen or the page idles. */
const EAGER_TAIL_CHUNKS = 2;
/** How far from the viewport a waiting group starts rendering, so scrolling never meets an empty one. */
const NEAR_SCREEN = "1500px 0px";

/**
 * A group of blocks. `eager` counts at the group's first render only: a group added at the end while the text
 * streams is eager, and stays rendered. A waiting group is an empty box of its estimated height (the height it is
 * given off screen anyway), so the list does not jump when it fills in.
 */
const Chunk = memo(function Chunk({ blocks, openLast, eager }: { blocks: readonly Token[]; openLast: boolean; eager: boolean }) {
  const [shown, setShown] = useState(eager);
  const box = useNearScreen(shown ? undefined : () => setShown(true));
  const last = blocks.length - 1;
  const estimate = estimateHeight(blocks);
  return (
    // `auto` remembers the size the group last rendered at; the estimate only serves groups never yet on screen.
    <div ref={box} className="md-chunk" style={shown ? { containIntrinsicSize: `auto ${estimate}px` } : { height: estimate }}>
      {shown ? blocks.map((block, i) => <Block key={i} token={block} open={openLast && i === last} />) : null}
    </div>
  );
});

/**
 * Calls `onNear` once, when the element comes within NEAR_SCREEN of what its scroller shows (the viewport outside
 * one) or the page is idle (so find-in-page and select-all eventually see the whole text). Nothing is watched while
 * `onNear` is undefined.
 */
function useNearScreen(onNear: (() => void) | undefined) {
  const box = useRef<HTMLDivElement>(null);
  const scroller = useContext(ScrollRoot);
  const wanted = onNear !== undefined;
  const latest = useRef(onNear);
  latest.current = onNear;
  useEffect(() => {
    const element = box.current;
    if (!wanted || !element) return;
    let done = false;
    const fire = () => {
      if (done) return;
      done = true;
      latest.current?.();
    };
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && fire(), {
      root: scroller?.current ?? null,
      rootMargin: NEAR_SCREEN,
    });
    observer.observe(element);
    const idle = typeof requestIdleCallback === "function" ? requestIdleCallback(fire) : window.setTimeout(fire, 200);
    return () => {
      observer.disconnect();
      if (typeof cancelIdleCallback === "function") cancelIdleCallback(idle);
      else clearTimeout(idle);
    };
  }, [wanted, scroller]);
  return box;
}

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

/** Text blocks take their direction from their own text (`dir="auto"`): an Arabic paragraph after an English one
 *  runs right to left. Code stays left to right. */
function BlockToken({ token, open }: { token: Token; open: boolean }) {
  switch (token.type) {
    case "space":
    case "def":
      return null;
    case "paragraph":
      return <p dir="auto"><Inline tokens={(token as Tokens.Paragraph).tokens} /></p>;
    case "heading": {
      const heading = token as Tokens.Heading;
      const Tag = `h${Math.min(Math.max(heading.depth, 1), 6)}` as "h1";
      return <Tag dir="auto"><Inline tokens={heading.tokens} /></Tag>;
    }
    case "code": {
      const code = token as Tokens.Code;
      return <CodeBlock code={code.text} lang={code.lang} open={open} />;
    }
    case "blockquote":
      return (
        <blockquote dir="auto">
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
      return <p dir="auto"><Inline tokens={text.tokens ?? [text]} /></p>;
    }
    default:
      return <p dir="auto">{token.raw}</p>;
  }
}

function List({ list }: { list: Tokens.List }) {
  const items = list.items.map((item, i) => (
    <li key={i} className={item.task ? "md-task" : undefined} dir="auto">
      {item.tokens.map((t, j) =>
        // Tight lists wrap item text in "text" tokens that must not become paragraphs.
        t.type === "text" && !item.loose ? <Inline key={j} tokens={(t as Tokens.Text).tokens ?? [t]} /> :
        t.type === "checkbox" ? <Inline key={j} tokens={[t]} /> :
        <BlockToken key={j} token={t} open={false} />,
      )}
    </li>
  ));
  return list.ordered ? <ol dir="auto" start={list.start === "" ? undefined : list.start}>{items}</ol> : <ul dir="auto">{items}</ul>;
}

function Table({ table }: { table: Tokens.Table }) {
  return (
    <div className="md-table-wrap">
      <table dir="auto">
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
