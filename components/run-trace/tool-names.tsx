/**
 * A list of tool names as one line of text. Names come from agents: they are rendered as
 * text, never as markup. A long list shows its first names and keeps the rest behind a
 * disclosure. (One text node per list keeps a page of hundreds of iterations light.)
 */
const VISIBLE = 40;

export type ToolTone = "kept" | "dropped" | "added" | "reinstated";

export function ToolNames({
  names,
  tone,
  empty = "none",
}: {
  names: readonly string[];
  tone?: ToolTone;
  empty?: string;
}) {
  if (names.length === 0) return <span className="muted">{empty}</span>;
  const className = tone ? `tool-names tool-names-${tone}` : "tool-names";
  if (names.length <= VISIBLE) return <span className={className}>{names.join(", ")}</span>;
  return (
    <span className={className}>
      {names.slice(0, VISIBLE).join(", ")}
      <details className="tool-names-more">
        <summary>{names.length - VISIBLE} more</summary>
        {names.slice(VISIBLE).join(", ")}
      </details>
    </span>
  );
}
