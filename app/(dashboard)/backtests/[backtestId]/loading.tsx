import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <>
      <PageHeader title="Backtest" />
      <SectionSkeleton label="Loading the backtest" rows={8} />
    </>
  );
}
