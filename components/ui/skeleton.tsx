/** Placeholder blocks shown while a section loads. */
export function Skeleton({ height = 16, width = "100%" }: { height?: number; width?: string }) {
  return <div className="skeleton" style={{ height, width }} aria-hidden="true" />;
}

export function SectionSkeleton({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <div className="panel" role="status" aria-label={label}>
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders with no identity.
        <Skeleton key={index} height={18} width={`${90 - index * 12}%`} />
      ))}
    </div>
  );
}
