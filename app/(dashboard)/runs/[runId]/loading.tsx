import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <>
      <PageHeader title="Run" />
      <SectionSkeleton label="Loading the run" rows={3} />
      <SectionSkeleton label="Loading iterations" rows={8} />
    </>
  );
}
