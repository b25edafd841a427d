import type { ReactNode } from "react";
import type { Token, Tokens } from "marked";
import { decodeEntities } from "./entities";

const SAFE_LINK = /^(https?:|mailto:)/i;

/**
 * Renders marked's inline tokens as React elements. Raw HTML in a reply is shown as text, never parsed, so a
 * model cannot inject markup; links are only live for http(s) and mailto.
 */
export function Inline({ tokens }: { tokens: readonly Token[] | undefined }): ReactNode {
  if (!tokens) return null;
  return tokens.map((token, i) => <InlineToken key={i} token={token} />);
}

function InlineToken({ token }: { token: Token }): ReactNode {
  switch (token.type) {
    case "text": {
      const t = token as Tokens.Text;
      return t.tokens ? <Inline tokens={t.tokens} /> : decodeEntities(t.text);
    }
    case "escape":
      return (token as Tokens.Escape).text;
    case "strong":
      return <strong><Inline tokens={(token as Tokens.Strong).tokens} /></strong>;
    case "em":
      return <em><Inline tokens={(token as Tokens.Em).tokens} /></em>;
    case "del":
      return <del><Inline tokens={(token as Tokens.Del).tokens} /></del>;
    case "codespan":
      return <code className="md-codespan">{(token as Tokens.Codespan).text}</code>;
    case "br":
      return <br />;
    case "link": {
      const link = token as Tokens.Link;
      if (!SAFE_LINK.test(link.href)) return <Inline tokens={link.tokens} />;
      return (
        <a href={link.href} title={link.title ?? undefined} target="_blank" rel="noreferrer noopener">
          <Inline tokens={link.tokens} />
        </a>
      );
    }
    case "image": {
      const image = token as Tokens.Image;
      // The CSP allows only local and data: images; a remote image becomes a link the user can choose to open.
      if (image.href.startsWith("data:image/")) return <img src={image.href} alt={image.text} className="md-image" />;
      if (!SAFE_LINK.test(image.href)) return image.text;
      return (
        <a href={image.href} target="_blank" rel="noreferrer noopener">
          {image.text ? `🖼 ${image.text}` : image.href}
        </a>
      );
    }
    case "checkbox":
      return <input type="checkbox" checked={(token as Tokens.Checkbox).checked} readOnly disabled aria-label="task" />;
    case "html":
      return (token as Tokens.HTML).text;
    default:
      return "text" in token && typeof token.text === "string" ? decodeEntities(token.text) : token.raw;
  }
}
