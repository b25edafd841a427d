import { Fragment, memo } from "react";
import { visibleSegments } from "../../../shared/security/hidden-characters";

/**
 * Text from a model or a tool, drawn so that what it holds is what it shows: each character that does not show as
 * itself (`shared/security/hidden-characters.ts`) becomes a marker styled apart from the text (`<U+202E>`, named in
 * its tooltip), a newline a `⏎` followed by the line break itself. No bidi control reaches the page, so nothing in
 * it can reorder the text around it; the element holding a command or a path should still say `dir="ltr"` (which
 * also isolates it: right-to-left letters inside reorder nothing outside). Line breaks show only where the element's
 * white-space keeps them.
 */
export const VisibleText = memo(function VisibleText({ text }: { text: string }) {
  const segments = visibleSegments(text);
  if (segments.length === 1 && "text" in segments[0]) return <>{text}</>;
  return (
    <>
      {segments.map((s, i) => "text" in s ? <Fragment key={i}>{s.text}</Fragment> : (
        <Fragment key={i}>
          <span className="hidden-char" title={s.name}>{s.marker}</span>
          {s.lineBreak ? "\n" : null}
        </Fragment>
      ))}
    </>
  );
});
