import { useMemo } from 'react';
import { splitLinks } from '../../lib/links';

/**
 * A message's text with its http(s) addresses as links, each showing the address as typed and
 * opening in a new tab. Everything is a React text node or an anchor: nothing is read as HTML.
 */
export function LinkedText({ text }: { text: string }) {
  const parts = useMemo(() => splitLinks(text), [text]);
  return (
    <>
      {parts.map((part, index) =>
        part.kind === 'link' ? (
          <a
            key={index}
            href={part.href}
            target="_blank"
            // nofollow: an address a visitor typed is not one we vouch for.
            rel="noopener noreferrer nofollow"
            className="underline underline-offset-2 [overflow-wrap:anywhere] hover:decoration-2"
          >
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
