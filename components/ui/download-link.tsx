/** A CSV download of a table with its current filters. */
export function DownloadLink({ href, label = "Download CSV" }: { href: string; label?: string }) {
  return (
    <a className="button button-quiet" href={href} download>
      {label}
    </a>
  );
}
