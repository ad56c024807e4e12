/**
 * Delay from an event crossing an alert threshold to the webhook call, with the real
 * one-minute schedule (pg-boss cron, as `npm start` runs it): `npm run bench:alerts`.
 *
 * A production server (`next start`) runs on its own database with alerts on; a webhook
 * receiver listens on 127.0.0.1. Each trial has its own tenant and rule (empty-palette rate
 * above 50 % over 5 minutes) and crosses its threshold with one ingest request at a different
 * second of the minute; the figure is the time from that request's answer to the receiver
 * getting the `firing` call. Prints every trial and the minimum, median and maximum.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { decisionEvent } from "@/lib/telemetry/events";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { startScratchDatabase } from "./lib/scratch-database";
import { seedApiKey } from "./lib/seed-key";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const { values } = parseCommandLine(
    { trials: { type: "string" } },
    "usage: npm run bench:alerts -- [--trials 6]",
  );
  const trials = positiveWholeNumber("trials", values.trials, 6);
  const log = (line: string) => console.error(`· ${line}`);
  ensureBuild(log);
  const scratch = await startScratchDatabase("bench_alerts", log);
  const url = scratch.url;

  const arrivals = new Map<string, number>();
  const receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const message = JSON.parse(body) as { state: string; rule: { id: string } };
      if (message.state === "firing" && !arrivals.has(message.rule.id)) {
        arrivals.set(message.rule.id, Date.now());
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const rules: { id: string; key: string }[] = [];
  for (let i = 0; i < trials; i++) {
    const tenant = `bench-alerts-${i}`;
    const key = await seedApiKey(url, tenant);
    const id = randomUUID();
    await db.query(
      `INSERT INTO alert_rules (id, tenant_id, name, metric, window_minutes, comparison, threshold, min_sample)
       VALUES ($1, $2, $3, 'empty-palette-rate', 5, 'gt', 50, 10)`,
      [id, tenant, `bench ${i}`],
    );
    await db.query(
      `INSERT INTO alert_channels (id, rule_id, tenant_id, kind, url, secret) VALUES ($1, $2, $3, 'webhook', $4, 'whsec_bench')`,
      [randomUUID(), id, tenant, hook],
    );
    rules.push({ id, key });
  }

  const app = await startAppServer({ databaseUrl: url, env: { ROUTELENS_ALERTS: "1" } });
  const crossings = new Map<string, number>();
  try {
    log("waiting for the alert schedule to exist");
    for (;;) {
      const { rows } = await db
        .query("SELECT count(*)::int AS n FROM pgboss.schedule")
        .catch(() => ({ rows: [{ n: 0 }] }));
      if ((rows[0]?.n ?? 0) > 0) break;
      await sleep(500);
    }
    // Trials spread over one minute: trial i crosses at second 5 + i * (50 / trials).
    const minuteStart = Math.ceil(Date.now() / 60_000) * 60_000;
    for (const [i, rule] of rules.entries()) {
      const at = minuteStart + 5_000 + Math.round((i * 50_000) / trials);
      await sleep(Math.max(0, at - Date.now()));
      const events = Array.from({ length: 20 }, () =>
        decisionEvent({ warnings: [{ code: "empty_palette", stage: "intent" }] }),
      );
      const response = await fetch(`${app.baseUrl}/api/ingest`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${rule.key}` },
        body: JSON.stringify({ batch: events }),
      });
      if (response.status !== 200) throw new Error(`ingest answered ${response.status}`);
      crossings.set(rule.id, Date.now());
      log(
        `trial ${i + 1}: crossed at second ${((Date.now() % 60_000) / 1000).toFixed(1)} of the minute`,
      );
    }
    const deadline = Date.now() + 180_000;
    while (arrivals.size < rules.length && Date.now() < deadline) await sleep(250);
  } finally {
    await app.stop();
    await db.end();
    receiver.close();
    await scratch.drop();
  }

  const delays: number[] = [];
  console.log("trial  crossed at (s of minute)  delay to webhook (s)");
  for (const [i, rule] of rules.entries()) {
    const crossed = crossings.get(rule.id);
    const arrived = arrivals.get(rule.id);
    const delay =
      crossed !== undefined && arrived !== undefined ? (arrived - crossed) / 1000 : null;
    if (delay !== null) delays.push(delay);
    const second = crossed !== undefined ? ((crossed % 60_000) / 1000).toFixed(1) : "-";
    console.log(
      `${String(i + 1).padStart(5)}  ${second.padStart(24)}  ${delay === null ? "not delivered" : delay.toFixed(1).padStart(20)}`,
    );
  }
  delays.sort((a, b) => a - b);
  if (delays.length > 0) {
    const median = delays[Math.floor((delays.length - 1) / 2)] as number;
    console.log(
      `delay from threshold crossing to webhook call: min ${delays[0]?.toFixed(1)} s, median ${median.toFixed(1)} s, max ${delays.at(-1)?.toFixed(1)} s (${delays.length}/${rules.length} delivered)`,
    );
  }
  if (delays.length < rules.length) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
