"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { LIVE_INTERVALS, type LiveInterval } from "@/lib/schemas/dashboard";
import { useIsClient } from "./use-is-client";

const LABELS: Record<LiveInterval, string> = { "15": "every 15 s", "60": "every 60 s" };

/**
 * Live mode: while on, the page's server data is re-fetched on an interval with
 * `router.refresh()`, which keeps the URL (filters), client state and scroll position. The
 * interval is kept in the URL (`live=15|60`) so a reload or a shared link stays live. Paused
 * while the tab is hidden.
 */
export function LiveRefresh({ interval }: { interval: LiveInterval | undefined }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const isClient = useIsClient();
  const [refreshedAt, setRefreshedAt] = useState<Date | null>(null);

  useEffect(() => {
    if (!interval) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState !== "visible") return;
      router.refresh();
      setRefreshedAt(new Date());
    }, Number(interval) * 1000);
    return () => window.clearInterval(timer);
  }, [interval, router]);

  const change = (value: string) => {
    const params = new URLSearchParams(searchParams.toString());
    if (value) params.set("live", value);
    else params.delete("live");
    const query = params.toString();
    setRefreshedAt(null);
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };

  return (
    <div className="live-refresh">
      <label>
        <span>Auto-refresh</span>
        <select
          value={interval ?? ""}
          onChange={(event) => change(event.target.value)}
          aria-describedby="live-refresh-status"
        >
          <option value="">off</option>
          {LIVE_INTERVALS.map((value) => (
            <option key={value} value={value}>
              {LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      <span id="live-refresh-status" className="muted" aria-live="polite">
        {interval ? (
          <>
            <span className="live-dot" aria-hidden="true" /> live
            {isClient && refreshedAt ? ` · updated ${refreshedAt.toLocaleTimeString()}` : ""}
          </>
        ) : null}
      </span>
    </div>
  );
}
