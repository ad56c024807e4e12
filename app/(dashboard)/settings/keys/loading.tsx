import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <>
      <PageHeader title="Ingest keys" />
      <SectionSkeleton label="Loading ingest keys" rows={4} />
    </>
  );
}
