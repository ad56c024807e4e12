import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <>
      <PageHeader title="Backtests" />
      <SectionSkeleton label="Loading backtests" rows={6} />
    </>
  );
}
