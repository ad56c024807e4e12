import { buildFirstEventCurl } from "@/lib/dashboard/first-event";
import { CopyButton } from "../ui/copy-button";

const CREATE_KEY = "npm run keys -- create my-tenant";

/** The overview when nothing has been stored yet: how to get a key and send a first event. */
export function GettingStarted({ origin, now }: { origin: string; now: Date }) {
  const send = `export ROUTELENS_KEY=<the key>\n${buildFirstEventCurl(origin, now)}`;
  return (
    <section className="panel getting-started" aria-labelledby="getting-started-title">
      <h2 id="getting-started-title">No decisions yet</h2>
      <p>
        Routelens shows what your agents' tool routing decides. Send it a first event and this page
        fills in.
      </p>
      <ol>
        <li>
          <p>
            Create an API key for a tenant on <a href="/settings/keys">Settings → Ingest keys</a>{" "}
            (shown once), or on the server (printed once, on the last line):
          </p>
          <div className="code-with-copy">
            <pre className="code-block">
              <code>{CREATE_KEY}</code>
            </pre>
            <CopyButton text={CREATE_KEY} />
          </div>
        </li>
        <li>
          <p>Keep it in a shell variable and send one decision:</p>
          <div className="code-with-copy">
            <pre className="code-block">
              <code>{send}</code>
            </pre>
            <CopyButton text={send} />
          </div>
        </li>
        <li>
          <p>
            Reload this page. The wire format is published as JSON Schema at{" "}
            <a href="/api/ingest/schema">
              <code>/api/ingest/schema</code>
            </a>
            .
          </p>
        </li>
      </ol>
    </section>
  );
}

/** The overview of a user who is a member of no tenant yet: nothing to show, and why. */
export function NoTenantsYet() {
  return (
    <section className="panel getting-started" aria-labelledby="no-tenants-title">
      <h2 id="no-tenants-title">No tenants yet</h2>
      <p>
        Your account is not a member of any tenant, so there is nothing to show. Ask an admin of
        this Routelens to give you a role (viewer or maintainer) in your team's tenants.
      </p>
    </section>
  );
}
