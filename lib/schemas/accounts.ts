/** Forms and inputs of accounts and access (SPEC §7): roles, sign-in, setup, invitations, keys. */
import { z } from "zod";
import { tenantIdSchema } from "./tenant";

export const TENANT_ROLES = ["viewer", "maintainer"] as const;
export const tenantRoleSchema = z.enum(TENANT_ROLES, {
  error: "must be viewer or maintainer",
});
export type TenantRole = z.infer<typeof tenantRoleSchema>;

/** What each role may do, as the settings pages explain it. */
export const TENANT_ROLE_TEXT: Record<TenantRole, string> = {
  viewer: "reads the tenant's pages and downloads",
  maintainer: "also creates and revokes the tenant's keys and saves its routing configs",
};

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(320, "must be at most 320 characters")
  .pipe(z.email({ error: "must be an email address" }));

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);

export const displayNameSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");

/** `/setup`: the one-time token from the server log and the first admin. */
export const setupFormSchema = z.object({
  token: z.string().trim().min(1, "is required: copy it from the server log"),
  name: displayNameSchema,
  email: emailSchema,
  password: passwordSchema,
});

/** Accepting an invitation: the new user's name and password. */
export const acceptInvitationSchema = z.object({
  token: z.string().min(1, "is required"),
  name: displayNameSchema,
  password: passwordSchema,
});

export const tenantRoleEntrySchema = z.object({ tenant: tenantIdSchema, role: tenantRoleSchema });
export type TenantRoleEntry = z.infer<typeof tenantRoleEntrySchema>;

export const inviteFormSchema = z.object({
  email: emailSchema,
  isAdmin: z.boolean().default(false),
  roles: z.array(tenantRoleEntrySchema).max(500, "at most 500 tenants per invitation"),
});

/** What an API key may do: send events, or read and change its tenant's routing configs. */
export const API_KEY_SCOPES = ["ingest", "configs"] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, { error: "must be ingest or configs" });
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** What each scope allows, as the keys page and the CLI explain it. */
export const API_KEY_SCOPE_TEXT: Record<ApiKeyScope, string> = {
  ingest: "sends events (agents, OpenTelemetry exporters)",
  configs: "reads and changes the tenant's routing configs (CI pipelines); cannot send events",
};

export const keyLabelSchema = z
  .string()
  .trim()
  .max(200, "must be at most 200 characters")
  .transform((label) => (label === "" ? undefined : label));

/** Creating a key on the settings page; a form without a label field means no label. */
export const createKeyFormSchema = z.object({
  tenant: tenantIdSchema,
  label: keyLabelSchema.optional(),
  scope: apiKeyScopeSchema.default("ingest"),
});

/** Revoking a key on the settings page: the key's id (its row, not the secret). */
export const revokeKeyFormSchema = z.object({
  keyId: z.uuid({ error: "must be the id of a key listed on this page" }),
});

/** `/sign-in?next=/runs&error=INVALID_TOKEN` */
export const signInSearchSchema = z.object({
  next: z.string().max(2_000).optional().catch(undefined),
  error: z.string().max(100).optional().catch(undefined),
});

/** A role to give in a tenant, or `none` to take the user's role there away. */
export const tenantRoleChoiceSchema = z.enum(["none", ...TENANT_ROLES], {
  error: "must be none, viewer or maintainer",
});

/** An id of a user or an invitation sent back by a settings form. */
const recordIdSchema = z.string().trim().min(1, "is required").max(64, "is not a valid id");

/** Settings → Users: one user's role in one tenant. */
export const setTenantRoleFormSchema = z.object({
  userId: recordIdSchema,
  tenant: tenantIdSchema,
  role: tenantRoleChoiceSchema,
});

/** Settings → Users: make or unmake an admin. */
export const setAdminFormSchema = z.object({
  userId: recordIdSchema,
  isAdmin: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((v) => v === "true"),
});

/** Settings → Users: deactivate (`active=false`) or reactivate (`active=true`) a user. */
export const setActiveFormSchema = z.object({
  userId: recordIdSchema,
  active: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true"),
});

/** Settings → Users: revoke a pending invitation. */
export const invitationIdFormSchema = z.object({
  invitationId: z.uuid({ error: "is not a valid invitation id" }),
});

/** The invite form's role select of a tenant is named `role:<tenant>`. */
export const INVITE_ROLE_FIELD_PREFIX = "role:";

/** Settings → Account: a first password for a user who signs in by link or single sign-on. */
export const setPasswordFormSchema = z.object({ password: passwordSchema });

/** Settings → Account: a new password, proved by the current one. */
export const changePasswordFormSchema = z.object({
  currentPassword: z.string().min(1, "is required"),
  password: passwordSchema,
});
