import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <>
      <PageHeader title="Rollouts" />
      <SectionSkeleton label="Loading rollouts" rows={8} />
    </>
  );
}
