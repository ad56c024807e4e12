import type { LimitsSectionData } from "@/lib/auth/limit-management";
import { INGEST_LIMIT_FIELD_INFO, INGEST_LIMIT_FIELDS } from "@/lib/schemas/ingest-limits";

const whole = (n: number) => n.toLocaleString("en");

/** The tenants with limits of their own, each value marked as the tenant's own or the default. */
export function IngestLimitsTable({ section }: { section: LimitsSectionData }) {
  const own = section.tenants.filter((row) =>
    INGEST_LIMIT_FIELDS.some((field) => row.overrides[field] !== null),
  );
  if (own.length === 0) {
    return <p data-testid="ingest-limits-empty">Every tenant has the default limits.</p>;
  }
  return (
    <div className="table-scroll">
      <table className="data-table" data-testid="ingest-limits-table">
        <thead>
          <tr>
            <th scope="col">Tenant</th>
            {INGEST_LIMIT_FIELDS.map((field) => (
              <th scope="col" key={field}>
                {INGEST_LIMIT_FIELD_INFO[field].label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {own.map((row) => (
            <tr key={row.tenantId}>
              <th scope="row">{row.tenantId}</th>
              {INGEST_LIMIT_FIELDS.map((field) => {
                const value = row.overrides[field];
                const { scope, measure } = INGEST_LIMIT_FIELD_INFO[field];
                return (
                  <td key={field}>
                    {value === null ? (
                      <span className="muted">
                        {whole(section.defaults[scope][measure])} (default)
                      </span>
                    ) : (
                      <strong>{whole(value)}</strong>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
