import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <>
      <PageHeader title="Tools" />
      <SectionSkeleton label="Loading tools" rows={8} />
    </>
  );
}
