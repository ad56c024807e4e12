import type { ConfigView } from "@/lib/configs/config-view";
import styles from "./configs.module.css";

function Names({ names }: { names: readonly string[] }) {
  if (names.length === 0) return <span className="muted small">no names</span>;
  return (
    <ul className="tool-list">
      {names.map((name) => (
        <li key={name} className="tool">
          {name}
        </li>
      ))}
    </ul>
  );
}

/** A config version, readable: palettes per role, keywords, policy, catalogue, other fields. */
export function ConfigSummary({ view }: { view: ConfigView }) {
  return (
    <div className={styles.sectionGrid} data-testid="config-summary">
      <section aria-labelledby="palettes-title">
        <h3 id="palettes-title">Palettes per role</h3>
        {view.palettes.length === 0 ? (
          <p className="muted small">
            No role palettes: the role-palette stage abstains for every role.
          </p>
        ) : (
          view.palettes.map(({ role, names }) => (
            <div key={role} className={styles.paletteRow} data-testid={`palette-${role}`}>
              <span className={styles.subject}>{role}</span>
              {names === null ? (
                <span className="muted small">abstains</span>
              ) : (
                <Names names={names} />
              )}
            </div>
          ))
        )}
      </section>
      <section aria-labelledby="always-title">
        <h3 id="always-title">Always included</h3>
        {view.alwaysInclude === null ? (
          <p className="muted small">Not set: the default (hydrate_context).</p>
        ) : (
          <Names names={view.alwaysInclude} />
        )}
      </section>
      <section aria-labelledby="keywords-title">
        <h3 id="keywords-title">Trigger keywords</h3>
        {view.keywords.length === 0 ? (
          <p className="muted small">None.</p>
        ) : (
          view.keywords.map(({ tool, keywords }) => (
            <div key={tool} className={styles.paletteRow}>
              <span className={styles.subject}>{tool}</span>
              <span className="small">{keywords.join(", ")}</span>
            </div>
          ))
        )}
      </section>
      <section aria-labelledby="policy-title">
        <h3 id="policy-title">Policy</h3>
        {view.policy.length === 0 ? (
          <p className="muted small">No policy: the policy stage abstains.</p>
        ) : (
          <dl className={`meta-grid ${styles.policyGrid}`}>
            {view.policy.map(({ field, value }) => (
              <div key={field}>
                <dt>{field}</dt>
                <dd className="mono small">{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <section aria-labelledby="catalog-title">
        <h3 id="catalog-title">Catalogue ({view.catalog.length} tools)</h3>
        {view.catalog.length === 0 ? (
          <p className="muted small">No catalogue: metadata is read from the offered tools.</p>
        ) : (
          <details>
            <summary>Show the catalogue</summary>
            <div className="table-scroll">
              <table className="data-table">
                <thead>
                  <tr>
                    <th>Tool</th>
                    <th>Safety</th>
                    <th className="num">Cost (USD)</th>
                    <th>Category</th>
                    <th>Capability</th>
                    <th>Visibility</th>
                    <th>Description</th>
                  </tr>
                </thead>
                <tbody>
                  {view.catalog.map((entry) => (
                    <tr key={entry.name}>
                      <td className="mono small">{entry.name}</td>
                      <td>{entry.safetyLevel}</td>
                      <td className="num">{entry.costUsd}</td>
                      <td>{entry.category}</td>
                      <td>{entry.requiredCapability}</td>
                      <td>{entry.visibility}</td>
                      <td className="small">{entry.description}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        )}
      </section>
      {view.other.map((field) => (
        <section key={field.field} aria-label={field.label}>
          <h3>{field.label}</h3>
          <pre className="code-block">{field.json}</pre>
        </section>
      ))}
    </div>
  );
}
