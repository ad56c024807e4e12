import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <>
      <PageHeader title="Runs" />
      <SectionSkeleton label="Loading runs" rows={8} />
    </>
  );
}
