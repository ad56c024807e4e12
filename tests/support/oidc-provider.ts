/**
 * A real OpenID Connect provider for single sign-on tests (`oidc-provider`, the certified
 * Node.js implementation), listening on 127.0.0.1: discovery, authorization with PKCE,
 * signed ID tokens, userinfo, and one confidential client whose redirect URI is Routelens's
 * callback. Users are kept in memory (`addUser`).
 *
 * Its login and consent screens are two small forms of this module (the provider's
 * interaction API does the rest), so a test drives them over plain HTTP like a browser:
 * `POST /interaction/<uid>/login` with `email`, then `POST /interaction/<uid>/confirm`.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Account, type InteractionResults } from "oidc-provider";

export interface OidcUser {
  email: string;
  name?: string;
  /** The `email_verified` claim (default true). */
  emailVerified?: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  addUser(user: OidcUser): void;
  stop(): Promise<void>;
}

/** The subject identifier the provider gives `email` (stable, and not the email). */
export function subjectOf(email: string): string {
  return `sub-${Buffer.from(email).toString("hex")}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

async function readForm(request: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export async function startOidcProvider({
  redirectUri,
}: {
  /** Routelens's callback, e.g. `http://127.0.0.1:3000/api/auth/callback/sso`. */
  redirectUri: string;
}): Promise<TestOidcProvider> {
  const users = new Map<string, OidcUser>();
  const clientId = "routelens-test";
  const clientSecret = randomBytes(24).toString("base64url");
  const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
    format: "jwk",
  });

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: "test-signing-key", use: "sig", alg: "RS256" }] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub): Account | undefined => {
      const user = [...users.values()].find((candidate) => subjectOf(candidate.email) === sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: user.email,
          email_verified: user.emailVerified ?? true,
          name: user.name ?? user.email.split("@")[0],
        }),
      };
    },
  });
  const providerCallback = provider.callback();

  /** The login and consent forms, and their submissions. */
  async function interaction(request: http.IncomingMessage, response: http.ServerResponse) {
    const [, , uid, step] = (request.url ?? "").split("?")[0]?.split("/") ?? [];
    const details = await provider.interactionDetails(request, response);
    if (details.uid !== uid) throw new Error("interaction does not match its cookie");
    const send = (status: number, html: string) => {
      response.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
      response.end(html);
    };
    if (request.method === "GET" && step === undefined) {
      const name = details.prompt.name;
      const form =
        name === "login"
          ? `<form method="post" action="/interaction/${uid}/login"><input name="email" type="email"><button>Sign in</button></form>`
          : `<form method="post" action="/interaction/${uid}/confirm"><button>Allow</button></form>`;
      return send(200, page(name === "login" ? "Sign in" : "Allow Routelens", form));
    }
    if (request.method !== "POST") return send(405, page("Method not allowed", ""));
    let result: InteractionResults;
    if (step === "login") {
      const email = (await readForm(request)).get("email")?.trim().toLowerCase() ?? "";
      if (!users.has(email)) return send(401, page("Sign in", "<p>Unknown user.</p>"));
      result = { login: { accountId: subjectOf(email) } };
    } else if (step === "confirm") {
      const { prompt, params, session, grantId } = details;
      const grant = grantId
        ? await provider.Grant.find(grantId)
        : new provider.Grant({ accountId: session?.accountId, clientId: String(params.client_id) });
      if (!grant) throw new Error("grant not found");
      const missing = prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      result = { consent: { grantId: await grant.save() } };
    } else if (step === "abort") {
      result = { error: "access_denied", error_description: "The user cancelled the sign-in." };
    } else {
      return send(404, page("Not found", ""));
    }
    await provider.interactionFinished(request, response, result, {
      mergeWithLastSubmission: false,
    });
  }

  server.on("request", (request, response) => {
    if (!request.url?.startsWith("/interaction/")) {
      providerCallback(request, response);
      return;
    }
    interaction(request, response).catch((error: unknown) => {
      response.writeHead(500, { "Content-Type": "text/plain" });
      response.end(error instanceof Error ? error.message : String(error));
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    addUser: (user) => users.set(user.email.toLowerCase(), user),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
