// Reads a request body with the size limit applied while reading: a body sent in chunks without a
// Content-Length is cut off at the limit instead of being buffered whole first.

/** The body as text (invalid UTF-8 → U+FFFD, as Request.text()), or null when it is over `max` bytes. */
export async function readBodyText(request: Request, max: number): Promise<string | null> {
  const declared = request.headers.get("content-length");
  // A declared length is checked before this (pipeline onRequest) and held to by the runtime.
  if (declared !== null || !request.body) return Number(declared ?? 0) > max ? null : request.text();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
