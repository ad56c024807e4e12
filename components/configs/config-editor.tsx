"use client";

/**
 * A new version of a tenant's routing config: pasted JSON, an uploaded file, or the form
 * (palettes per role, keywords, always-include names, policy fields). "Preview" asks the
 * server for the version and the diff against the current config; "Save" stores it. Issues
 * name the config field and the rule; in the form they sit beside the field they concern.
 */
import { type ChangeEvent, useActionState, useState, useTransition } from "react";
import { type ConfigSaveState, previewConfig, saveConfig } from "@/lib/auth/config-actions";
import type { ConfigPreview } from "@/lib/auth/config-management";
import type { ConfigIssue } from "@/lib/configs/check";
import {
  type ConfigFormFields,
  configToFormFields,
  formFieldOf,
  formFieldsToConfig,
} from "@/lib/configs/config-form";
import { ConfigDiffView } from "./config-diff-view";
import styles from "./configs.module.css";

type Mode = "json" | "form";

function IssueList({ issues, testId }: { issues: readonly ConfigIssue[]; testId?: string }) {
  if (issues.length === 0) return null;
  return (
    <ul className={styles.issues} role="alert" data-testid={testId}>
      {issues.map((issue) => (
        <li key={`${issue.field}: ${issue.message}`}>
          <span className="mono">{issue.field}</span>: {issue.message}
        </li>
      ))}
    </ul>
  );
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function ConfigEditor({ tenant, initialText }: { tenant: string; initialText: string }) {
  const [mode, setMode] = useState<Mode>("json");
  const [text, setText] = useState(initialText);
  const [formBase, setFormBase] = useState<unknown>(() => parseOrNull(initialText) ?? {});
  const [fields, setFields] = useState<ConfigFormFields>(() =>
    configToFormFields(parseOrNull(initialText) ?? {}),
  );
  const [formIssues, setFormIssues] = useState<{ field: string; message: string }[]>([]);
  const [note, setNote] = useState("");
  const [preview, setPreview] = useState<{ text: string; answer: ConfigPreview } | null>(null);
  const [previewing, startPreview] = useTransition();
  const [saveState, saveAction, saving] = useActionState(saveConfig, {} as ConfigSaveState);

  const switchTo = (next: Mode) => {
    if (next === mode) return;
    if (next === "form") {
      const parsed = parseOrNull(text);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        setFormIssues([
          { field: "config", message: "is not a JSON object: fix it before using the form" },
        ]);
        return;
      }
      setFormBase(parsed);
      setFields(configToFormFields(parsed));
    }
    setFormIssues([]);
    setMode(next);
  };

  const changeField = (next: ConfigFormFields) => {
    setFields(next);
    const read = formFieldsToConfig(next, formBase);
    if (read.ok) {
      setFormIssues([]);
      setText(JSON.stringify(read.config, null, 2));
    } else {
      setFormIssues(read.issues);
    }
  };

  const setField =
    (name: keyof ConfigFormFields) =>
    (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
      const target = event.target;
      const value =
        target instanceof HTMLInputElement && target.type === "checkbox"
          ? target.checked
          : target.value;
      changeField({ ...fields, [name]: value });
    };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const content = await file.text();
    setText(content);
    setMode("json");
  };

  const runPreview = () => {
    const previewed = text;
    startPreview(async () => {
      setPreview({ text: previewed, answer: await previewConfig(tenant, previewed) });
    });
  };

  const answer = preview?.text === text ? preview.answer : null;
  const issues: ConfigIssue[] = [
    ...(answer && answer.ok === false && "issues" in answer ? answer.issues : []),
    ...(saveState.issues ?? []),
  ];
  const issuesFor = (field: keyof ConfigFormFields) => [
    ...issues.filter((issue) => formFieldOf(issue.field) === field),
    ...formIssues.filter((issue) => issue.field === field).map((issue) => ({ ...issue, field })),
  ];
  const unplaced =
    mode === "form" ? issues.filter((issue) => formFieldOf(issue.field) === null) : issues;

  const formText = (name: keyof ConfigFormFields, label: string, hint: string) => (
    <label className="field">
      {label}
      <textarea
        name={`form-${name}`}
        className={styles.formText}
        value={String(fields[name])}
        onChange={setField(name)}
        aria-invalid={issuesFor(name).length > 0 || undefined}
        data-testid={`form-${name}`}
      />
      <span className="small muted">{hint}</span>
      <IssueList issues={issuesFor(name)} testId={`issues-${name}`} />
    </label>
  );
  const formInput = (name: keyof ConfigFormFields, label: string, placeholder = "") => (
    <label className="field">
      {label}
      <input
        type="text"
        name={`form-${name}`}
        value={String(fields[name])}
        placeholder={placeholder}
        onChange={setField(name)}
        aria-invalid={issuesFor(name).length > 0 || undefined}
      />
      <IssueList issues={issuesFor(name)} testId={`issues-${name}`} />
    </label>
  );
  const formCheck = (name: "includeUnknownCost" | "agentVisibleOnly", label: string) => (
    <label className="field-check">
      <input type="checkbox" checked={fields[name]} onChange={setField(name)} /> {label}
    </label>
  );

  return (
    <div className={styles.editor}>
      <fieldset className="plain-fieldset button-row">
        <legend className="visually-hidden">How to write the config</legend>
        <button
          type="button"
          className={mode === "json" ? "button button-primary" : "button"}
          aria-pressed={mode === "json"}
          onClick={() => switchTo("json")}
          data-testid="mode-json"
        >
          Paste or upload JSON
        </button>
        <button
          type="button"
          className={mode === "form" ? "button button-primary" : "button"}
          aria-pressed={mode === "form"}
          onClick={() => switchTo("form")}
          data-testid="mode-form"
        >
          Use the form
        </button>
      </fieldset>

      {mode === "json" ? (
        <>
          <label className="field">
            Config (JSON: roleTools, alwaysInclude, triggerKeywords, policy, catalog)
            <textarea
              className={styles.editorText}
              value={text}
              onChange={(event) => setText(event.target.value)}
              spellCheck={false}
              aria-invalid={issues.length > 0 || undefined}
              data-testid="config-json"
            />
          </label>
          <label className="field">
            Or upload a JSON file
            <input type="file" accept="application/json,.json" onChange={upload} />
          </label>
        </>
      ) : (
        <fieldset className="plain-fieldset">
          <legend className="small muted">
            The form changes palettes, keywords, always-include names and policy; the catalogue and
            any other field are kept as they are.
          </legend>
          {formText(
            "palettes",
            "Palettes per role",
            "One role per line: action: lookup_order, issue_refund. Write abstain for a role whose palette abstains.",
          )}
          {formText(
            "keywords",
            "Trigger keywords",
            "One tool per line: track_shipment: track, parcel",
          )}
          {formInput("alwaysInclude", "Always included", "hydrate_context, search_kb")}
          <div className={styles.policyGrid}>
            {formInput(
              "maxSafetyLevel",
              "Max safety level",
              "read, write, destructive or a number",
            )}
            {formInput("budgetUsd", "Budget per call (USD)", "e.g. 0.05")}
            {formInput("availableCapabilities", "Available capabilities", "comma-separated")}
            {formInput("categories", "Allowed categories", "comma-separated")}
          </div>
          {formCheck("includeUnknownCost", "Tools of unknown cost pass the budget")}
          {formCheck("agentVisibleOnly", "Only agent-visible tools")}
        </fieldset>
      )}

      <IssueList issues={unplaced} testId="config-issues" />

      <div className="button-row">
        <button
          type="button"
          className="button"
          onClick={runPreview}
          disabled={previewing || formIssues.length > 0}
          data-testid="preview-config"
        >
          {previewing ? "Previewing…" : "Preview"}
        </button>
      </div>

      {answer?.ok === true ? (
        <section className={styles.preview} aria-label="Preview" data-testid="config-preview">
          <p>
            Version{" "}
            <span className="mono" data-testid="preview-version">
              {answer.configVersion}
            </span>
            {answer.changed
              ? answer.currentVersion
                ? ` replaces ${answer.currentVersion}.`
                : " is the tenant's first stored config."
              : " is already the current config: saving adds no history entry."}
          </p>
          {answer.currentVersion ? (
            <ConfigDiffView diff={answer.diff} testId="preview-diff" />
          ) : null}
          <form action={saveAction} className="form-stack">
            <input type="hidden" name="tenant" value={tenant} />
            <input type="hidden" name="config" value={text} />
            <label className="field">
              Note (optional: why this version)
              <input
                type="text"
                name="note"
                value={note}
                maxLength={2000}
                onChange={(event) => setNote(event.target.value)}
                data-testid="config-note"
              />
            </label>
            <button
              type="submit"
              className="button button-primary"
              disabled={saving}
              data-testid="save-config"
            >
              {saving ? "Saving…" : `Save version ${answer.configVersion}`}
            </button>
          </form>
        </section>
      ) : null}
      {answer && answer.ok === false && "message" in answer ? (
        <p className="form-error" role="alert">
          {answer.message}
        </p>
      ) : null}
      {saveState.error ? (
        <p className="form-error" role="alert">
          {saveState.error}
        </p>
      ) : null}
    </div>
  );
}
