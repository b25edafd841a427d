import type { ReactNode } from "react";
import type { Token, Tokens } from "marked";
import { decodeEntities } from "./entities";
import { ExternalLink } from "./ExternalLink";

/**
 * Renders marked's inline tokens as React elements. Raw HTML in a reply is shown as text, never parsed, so a
 * model cannot inject markup; links are only live for http(s) and mailto, and show and check their real target
 * (ExternalLink).
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
      return <ExternalLink href={link.href}><Inline tokens={link.tokens} /></ExternalLink>;
    }
    case "image": {
      const image = token as Tokens.Image;
      // The CSP allows only local and data: images; a remote image becomes a link the user can choose to open.
      if (image.href.startsWith("data:image/")) return <img src={image.href} alt={image.text} className="md-image" />;
      return <ExternalLink href={image.href}>{image.text ? `🖼 ${image.text}` : image.href}</ExternalLink>;
    }
    case "checkbox":
      return <input type="checkbox" checked={(token as Tokens.Checkbox).checked} readOnly disabled aria-label="task" />;
    case "html":
      return (token as Tokens.HTML).text;
    default:
      return "text" in token && typeof token.text === "string" ? decodeEntities(token.text) : token.raw;
  }
}
