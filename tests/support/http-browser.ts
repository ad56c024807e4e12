/**
 * Plain HTTP with a browser's memory: cookies kept per host (as browsers do, whatever the
 * port) and redirects followed one at a time, so a test can walk a sign-in that crosses
 * Routelens and an identity provider and see every hop.
 */

export interface Visited {
  response: Response;
  /** The URL that answered (after the redirects followed). */
  url: string;
  /** Every URL requested, in order. */
  hops: string[];
  text: string;
}

export class HttpBrowser {
  private readonly cookies = new Map<string, Map<string, string>>();

  /** The cookies held for `url`'s host. */
  cookiesFor(url: string): ReadonlyMap<string, string> {
    return this.cookies.get(new URL(url).hostname) ?? new Map();
  }

  private remember(url: string, response: Response) {
    const host = new URL(url).hostname;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    this.cookies.set(host, jar);
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const separator = pair.indexOf("=");
      if (separator < 0) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = "", setting = ""] = attribute.trim().split("=");
        if (key.toLowerCase() === "max-age") return Number(setting) <= 0;
        if (key.toLowerCase() === "expires") return Date.parse(setting) <= Date.now();
        return false;
      });
      if (expired || value === "") jar.delete(name);
      else jar.set(name, value);
    }
  }

  /** One request with this browser's cookies; redirects are not followed. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const jar = this.cookiesFor(url);
    if (jar.size > 0) {
      headers.set("Cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    this.remember(url, response);
    return response;
  }

  /** A request, then its redirects (GET) until a page answers; at most 20 hops. */
  async visit(url: string, init: RequestInit = {}): Promise<Visited> {
    const hops = [url];
    let current = url;
    let response = await this.request(url, init);
    while (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("Location");
      if (!location) break;
      await response.body?.cancel();
      current = new URL(location, current).toString();
      hops.push(current);
      if (hops.length > 20) throw new Error(`too many redirects: ${hops.join(" → ")}`);
      response = await this.request(current);
    }
    return { response, url: current, hops, text: await response.text() };
  }

  /** Submits a form (`application/x-www-form-urlencoded`) and follows the redirects. */
  submit(url: string, fields: Record<string, string>): Promise<Visited> {
    return this.visit(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }
}
