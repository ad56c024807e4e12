import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <>
      <PageHeader title="Overview" />
      <SectionSkeleton label="Loading the overview" rows={6} />
    </>
  );
}
