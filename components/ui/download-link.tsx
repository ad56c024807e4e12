import { formatCount } from "@/lib/dashboard/format";

/**
 * A CSV download of a table with its current filters. The download writes at most `rowLimit`
 * rows (README, "CSV downloads"); the link says so.
 */
export function DownloadLink({
  href,
  rowLimit,
  label = "Download CSV",
}: {
  href: string;
  rowLimit: number;
  label?: string;
}) {
  return (
    <a
      className="button button-quiet"
      href={href}
      download
      title={`At most ${formatCount(rowLimit)} rows`}
    >
      {label}
    </a>
  );
}
