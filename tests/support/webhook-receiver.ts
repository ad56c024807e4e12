/**
 * A webhook receiver on 127.0.0.1 for the alert tests: records every delivery it is sent, and
 * can go away and come back on the same port.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: {
    type: string;
    state: string;
    rule: { id: string };
    tenant: string;
    value: number;
    runsUrl: string;
  };
}

export class Receiver {
  received: Received[] = [];
  private server: Server | null = null;
  port = 0;

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        this.received.push({ headers: request.headers, body, json: JSON.parse(body) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  forRule(ruleId: string): Received[] {
    return this.received.filter((r) => r.json.rule.id === ruleId);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }
}
