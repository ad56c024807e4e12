import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <>
      <PageHeader title="Routing configs" />
      <SectionSkeleton label="Loading routing configs" rows={6} />
    </>
  );
}
