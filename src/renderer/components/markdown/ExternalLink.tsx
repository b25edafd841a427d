import { useMemo, useRef, useState, type MouseEvent, type ReactNode } from "react";
import { linkTarget, misleadingAddress } from "../../../shared/security/external-links";
import { ConfirmLinkDialog } from "../common/ConfirmLinkDialog";

/**
 * A link in model output. Live only for what may leave the app (`linkTarget`: http, https, mailto); anything else
 * shows as its text. Its tooltip is the real target (host names in punycode), never the model's own title, which
 * could say anything. Opening goes through the page: a link whose text shows another address than its target
 * (`misleadingAddress`) asks first, with the real target in full; the rest open at once. Either way the link
 * leaves through `window.open`, which main turns into the system browser or mail client (Electron) and the
 * browser into a new tab (browser host).
 */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }): ReactNode {
  const target = useMemo(() => linkTarget(href), [href]);
  const [shown, setShown] = useState<string | null>(null);
  const anchor = useRef<HTMLAnchorElement>(null);
  if (!target) return children;

  const open = () => {
    window.open(target.href, "_blank", "noopener,noreferrer");
  };
  const activate = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    // The words on screen, as the reader sees them, whatever markup made them.
    const disguise = misleadingAddress(event.currentTarget.textContent ?? "", target);
    if (disguise === undefined) open();
    else setShown(disguise);
  };
  const close = () => {
    setShown(null);
    anchor.current?.focus();
  };

  return (
    <>
      <a
        ref={anchor}
        href={target.href}
        title={target.display}
        target="_blank"
        rel="noreferrer noopener"
        onClick={activate}
        // A middle click would open the link past the check.
        onAuxClick={(event) => {
          if (event.button === 1) activate(event);
        }}
      >
        {children}
      </a>
      {shown !== null ? (
        <ConfirmLinkDialog
          shown={shown}
          target={target.display}
          onCancel={close}
          onConfirm={() => {
            close();
            open();
          }}
        />
      ) : null}
    </>
  );
}
