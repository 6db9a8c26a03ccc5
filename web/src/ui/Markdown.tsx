import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { safeUrl } from './safe-url';

/**
 * Text from a model, an agent's prompt or a tool result, rendered as markdown and never as HTML:
 * react-markdown builds React elements from a markdown syntax tree, so raw HTML in the text is
 * escaped and shown as text, the way a person would want to read it (no rehype-raw here, on purpose) and link/image URLs go through its URL filter,
 * which drops `javascript:` and other non-web schemes. Links open outside the console.
 */
export function Markdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className ? `markdown ${className}` : 'markdown'}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        urlTransform={safeUrl}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow">
              {children}
            </a>
          ),
          // A model's image would be fetched from wherever it points, telling that host someone read it.
          img: ({ alt }) => <span className="muted">[image: {alt || 'no description'}]</span>,
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
