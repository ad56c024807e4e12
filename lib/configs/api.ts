/**
 * `GET` and `PUT /api/configs/<tenant>` (SPEC §10), for CI pipelines and scripts. The caller is
 * a signed-in user (session cookie) or an API key with the configs scope
 * (`Authorization: Bearer rl_…`); who may do what is `lib/auth/config-management.ts`.
 *
 * PUT answers 201 when it stored a new version, 200 when the version was already current (no
 * history entry), 400 naming the field and the rule, 401 without a valid session or key, 403
 * for a viewer or an ingest key, 404 for a tenant the caller may not read, 413 for a body over
 * 1 MiB, 415 for a body that is not JSON.
 */
import "server-only";
import { viewerOfRequest } from "@/lib/auth/access";
import {
  type ConfigCaller,
  configReadAccess,
  configWriteAccess,
  saveConfigAs,
} from "@/lib/auth/config-management";
import type { StoredRoutingConfig } from "@/lib/db/queries/routing-configs";
import { getCurrentRoutingConfig, getRoutingConfigVersion } from "@/lib/db/queries/routing-configs";
import { bearerTokenOf, mediaTypeOf } from "@/lib/ingest/request";
import { findActiveApiKey } from "@/lib/keys";
import {
  CONFIG_BODY_MAX_BYTES,
  configGetSearchSchema,
  configSaveBodySchema,
  configTenantSchema,
} from "@/lib/schemas/config-api";
import { type ConfigIssue, describeIssues, fieldName } from "./check";

const NO_STORE = { "Cache-Control": "no-store" };

function answer(status: number, body: Record<string, unknown>): Response {
  return Response.json(body, { status, headers: NO_STORE });
}

function refuse(status: number, error: string, issues?: ConfigIssue[]): Response {
  return answer(status, issues ? { error, issues } : { error });
}

/** The caller of a request, or the 401 that refuses it. */
async function callerOf(request: Request): Promise<ConfigCaller | Response> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const token = bearerTokenOf(authorization);
    const key = token ? await findActiveApiKey(token) : null;
    if (!key) {
      return refuse(
        401,
        "Unknown or revoked API key: send `Authorization: Bearer <key>` with a configs key of the tenant, or sign in.",
      );
    }
    return { kind: "key", key };
  }
  const viewer = await viewerOfRequest(request);
  if (!viewer) {
    return refuse(
      401,
      "Sign in, or send `Authorization: Bearer <key>` with a configs key of the tenant.",
    );
  }
  return { kind: "user", viewer };
}

function tenantOf(segment: string): string | null {
  const parsed = configTenantSchema.safeParse(segment);
  return parsed.success ? parsed.data : null;
}

/** A stored version as the API returns it. */
function toApi(stored: StoredRoutingConfig): Record<string, unknown> {
  return {
    tenant: stored.tenantId,
    version: stored.configVersion,
    revision: stored.revision,
    savedAt: stored.savedAt.toISOString(),
    author: { kind: stored.authorKind, name: stored.authorName },
    note: stored.note,
    config: stored.config,
  };
}

/** `GET /api/configs/<tenant>[?version=cfg_…]`: the current config, or that version. */
export async function getConfig(request: Request, segment: string): Promise<Response> {
  const caller = await callerOf(request);
  if (caller instanceof Response) return caller;
  const tenant = tenantOf(segment);
  if (tenant === null) return refuse(404, "No such tenant.");
  const access = configReadAccess(caller, tenant);
  if (!access.ok) return refuse(access.status === "forbidden" ? 403 : 404, access.message);
  const url = new URL(request.url);
  const query = configGetSearchSchema.safeParse({
    version: url.searchParams.get("version") ?? undefined,
  });
  if (!query.success) {
    const issue = query.error.issues[0];
    return refuse(400, `version: ${issue?.message ?? "is not valid"}`);
  }
  const { version } = query.data;
  const stored = version
    ? await getRoutingConfigVersion(access.scope, tenant, { version })
    : await getCurrentRoutingConfig(access.scope, tenant);
  if (!stored) {
    return refuse(
      404,
      version
        ? `Tenant ${tenant} has no stored config with version ${version}.`
        : `Tenant ${tenant} has no stored routing config yet: PUT one.`,
    );
  }
  return answer(200, toApi(stored));
}

class BodyTooLarge extends Error {}

/** The body as text, never reading past `CONFIG_BODY_MAX_BYTES`. */
async function readBoundedBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > CONFIG_BODY_MAX_BYTES) throw new BodyTooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > CONFIG_BODY_MAX_BYTES) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** `PUT /api/configs/<tenant>` with `{"config": {…}, "note": "…"}`. */
export async function putConfig(request: Request, segment: string): Promise<Response> {
  const caller = await callerOf(request);
  if (caller instanceof Response) return caller;
  const tenant = tenantOf(segment);
  if (tenant === null) return refuse(404, "No such tenant.");
  // The access check comes before the body is read: a refused caller's body is never parsed.
  const access = configWriteAccess(caller, tenant);
  if (!access.ok) return refuse(access.status === "forbidden" ? 403 : 404, access.message);
  const contentType = request.headers.get("content-type");
  if (mediaTypeOf(contentType) !== "application/json") {
    return refuse(
      415,
      `Content-Type must be application/json (got ${contentType ? `"${contentType}"` : "none"}).`,
    );
  }
  let text: string;
  try {
    text = await readBoundedBody(request);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      return refuse(413, `The body is over ${CONFIG_BODY_MAX_BYTES / 1024 / 1024} MiB.`);
    }
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuse(400, "body: is not valid JSON");
  }
  const body = configSaveBodySchema.safeParse(json);
  if (!body.success) {
    const issues = body.error.issues.flatMap((issue): ConfigIssue[] =>
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => ({
            field: key,
            message:
              "is not a field of the body: send config (the routing config) and an optional note",
          }))
        : [
            {
              field: issue.path.length === 0 ? "body" : fieldName(issue.path),
              message: issue.message,
            },
          ],
    );
    return refuse(400, describeIssues(issues), issues);
  }
  const saved = await saveConfigAs(
    caller,
    tenant,
    { config: body.data.config, note: body.data.note },
    request.headers,
  );
  switch (saved.status) {
    case "invalid": {
      const issues = saved.issues.map((issue) => ({
        ...issue,
        field: issue.field === "config" ? "config" : `config.${issue.field}`,
      }));
      return refuse(400, describeIssues(issues), issues);
    }
    case "no-tenant":
      return refuse(404, "No such tenant.");
    case "not-found":
      return refuse(404, saved.message);
    case "forbidden":
      return refuse(403, saved.message);
    case "saved":
      return answer(201, {
        tenant,
        version: saved.configVersion,
        revision: saved.revision,
        changed: true,
        previousVersion: saved.previousVersion,
      });
    case "unchanged":
      return answer(200, {
        tenant,
        version: saved.configVersion,
        revision: saved.revision,
        changed: false,
        message: `Version ${saved.configVersion} is already the current config of ${tenant}: no new history entry.`,
      });
  }
}
