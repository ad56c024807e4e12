"use client";

import { RouteError } from "@/components/ui/route-error";

/** The last resort for a page without an error boundary of its own. */
export default function RootError({ error, retry }: { error: unknown; retry: () => void }) {
  return <RouteError error={error} retry={retry} what="this page" />;
}
