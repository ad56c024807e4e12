"use client";

import { RouteError } from "@/components/ui/route-error";

export default function AuditError({ error, retry }: { error: unknown; retry: () => void }) {
  return <RouteError error={error} retry={retry} what="the audit log" />;
}
