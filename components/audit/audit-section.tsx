/**
 * The audit page's section: one page of entries within the viewer's audit scope, newest first,
 * with its pagers.
 */
import { auditView, toAuditRow } from "@/lib/dashboard/audit";
import { describePage } from "@/lib/dashboard/pagination";
import { type AuditFilter, countAuditEntries, listAuditEntries } from "@/lib/db/queries/audit";
import { AUDIT_PAGE_SIZE, type AuditSearch } from "@/lib/schemas/audit";
import { Pager } from "../ui/pager";
import { AuditTable } from "./audit-table";

export async function AuditSection({
  search,
  filter,
}: {
  search: AuditSearch;
  filter: AuditFilter;
}) {
  const requested = describePage(search.page, AUDIT_PAGE_SIZE, Number.MAX_SAFE_INTEGER);
  let [total, entries] = await Promise.all([
    countAuditEntries(filter),
    listAuditEntries(filter, { offset: requested.offset, limit: AUDIT_PAGE_SIZE }),
  ]);
  const info = describePage(search.page, AUDIT_PAGE_SIZE, total);
  if (info.page !== search.page) {
    // The page asked for is past the end: show the last one.
    entries = await listAuditEntries(filter, { offset: info.offset, limit: AUDIT_PAGE_SIZE });
  }
  const hrefFor = (page: number) => auditView.href(search, { page });
  return (
    <section className="panel" aria-label="Audit log">
      <div className="section-head">
        <Pager info={info} hrefFor={hrefFor} noun="entries" label="Audit log pages" />
      </div>
      <AuditTable rows={entries.map(toAuditRow)} />
      {info.pageCount > 1 ? (
        <Pager info={info} hrefFor={hrefFor} noun="entries" label="Audit log pages, bottom" />
      ) : null}
    </section>
  );
}
