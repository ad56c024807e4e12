"use client";

import { RouteError } from "@/components/ui/route-error";

export default function ConfigsError({ error, retry }: { error: unknown; retry: () => void }) {
  return <RouteError error={error} retry={retry} what="the routing configs" />;
}
