import { gzipSync } from "node:zlib";

/** POSTs a batch to /api/ingest the way an agent would. */
export async function postBatch(
  baseUrl: string,
  key: string | null,
  batch: unknown,
  { gzip = false, contentType = "application/json" }: { gzip?: boolean; contentType?: string } = {},
): Promise<Response> {
  const text = typeof batch === "string" ? batch : JSON.stringify({ batch });
  const headers: Record<string, string> = { "Content-Type": contentType };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (gzip) headers["Content-Encoding"] = "gzip";
  return fetch(`${baseUrl}/api/ingest`, {
    method: "POST",
    headers,
    body: gzip ? gzipSync(text) : text,
  });
}
