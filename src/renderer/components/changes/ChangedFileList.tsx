import { memo, useCallback, useEffect, useId, useRef, type KeyboardEvent } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { ChangeAuthor, ChangedFile } from "../../../shared/protocol/changes";
import { authorNames, fileFigures, fileRowLabel, statusMark } from "./changes-panel";

/** One row's height in px: rows are one line, so the list needs no measuring (1,000 files paint at once). */
const ROW_HEIGHT = 30;

interface ChangedFileListProps {
  files: readonly ChangedFile[];
  authors: readonly ChangeAuthor[];
  /** The file shown in the diff pane. */
  selected: number | undefined;
  onSelect(index: number): void;
}

/**
 * The changed files, one row each, virtualized: only the rows in view (and a few around) are in the page. A listbox
 * the keyboard moves through (arrows, Home, End, Page Up/Down); the row with the focus ring is the one the diff pane
 * shows.
 */
export const ChangedFileList = memo(function ChangedFileList({ files, authors, selected, onSelect }: ChangedFileListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const baseId = useId();
  const virtualizer = useVirtualizer({
    count: files.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // Before the first layout the list's height is unknown: a window's worth of rows paints at once.
    initialRect: { width: 0, height: 600 },
  });

  useEffect(() => {
    if (selected !== undefined) virtualizer.scrollToIndex(selected, { align: "auto" });
  }, [selected, virtualizer]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (files.length === 0) return;
      const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
      const at = selected ?? -1;
      const to =
        event.key === "ArrowDown" ? at + 1
        : event.key === "ArrowUp" ? at - 1
        : event.key === "Home" ? 0
        : event.key === "End" ? files.length - 1
        : event.key === "PageDown" ? at + page
        : event.key === "PageUp" ? at - page
        : undefined;
      if (to === undefined) return;
      event.preventDefault();
      onSelect(Math.max(0, Math.min(files.length - 1, to)));
    },
    [files.length, onSelect, selected],
  );

  return (
    <div
      ref={scrollRef}
      className="changed-files"
      role="listbox"
      aria-label="Changed files"
      tabIndex={0}
      aria-activedescendant={selected !== undefined ? `${baseId}-${selected}` : undefined}
      onKeyDown={onKeyDown}
      data-testid="changed-files"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {virtualizer.getVirtualItems().map((row) => {
          const file = files[row.index];
          const mark = statusMark(file.status);
          const by = authorNames(file.authors.map((i) => authors[i]).filter((a): a is ChangeAuthor => a !== undefined));
          return (
            <div
              key={row.key}
              id={`${baseId}-${row.index}`}
              role="option"
              aria-selected={row.index === selected}
              aria-label={fileRowLabel(file, authors)}
              className={`changed-file status-${file.status}${row.index === selected ? " selected" : ""}`}
              style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
              onClick={() => onSelect(row.index)}
              data-testid={`changed-file-${row.index}`}
            >
              <span className="changed-file-status" aria-hidden="true">{mark.letter}</span>
              {/* Cut at the start when long (the file's name is what matters): the box runs right to left, the path inside it left to right. */}
              <span className="changed-file-path" title={file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}>
                <span dir="ltr">
                  {file.oldPath ? <span className="changed-file-old">{file.oldPath} → </span> : null}
                  {file.path}
                </span>
              </span>
              {by ? <span className="changed-file-by" aria-hidden="true">{by}</span> : null}
              <span className="changed-file-figures" aria-hidden="true">
                {file.binary || file.tooLarge ? fileFigures(file) : (
                  <>
                    <span className="change-added">+{file.added}</span> <span className="change-removed">{"\u2212"}{file.removed}</span>
                  </>
                )}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
});
