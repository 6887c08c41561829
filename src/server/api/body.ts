/**
 * Reads a request body into memory, stopping as soon as it passes `limit` bytes (answering null):
 * a too-large body is refused after at most `limit` bytes were read, whatever it declared.
 */
export async function readBodyAtMost(request: Request, limit: number): Promise<Buffer | null> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
