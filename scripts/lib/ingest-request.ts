/** One `POST /api/ingest` as the benchmarks send it: a Bearer key, JSON, gzip when asked. */
export function postIngest(
  url: string,
  key: string,
  body: Uint8Array<ArrayBuffer> | string,
  { gzip = false, signal }: { gzip?: boolean; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
      ...(gzip ? { "Content-Encoding": "gzip" } : {}),
    },
    body,
    ...(signal ? { signal } : {}),
  });
}
