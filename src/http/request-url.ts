// The path and query of a request's URL without parsing the URL again: the pipeline reads them for every
// request (Host and body checks, the request log, the audit row), and a new URL() each time was two URL
// parses per request.

/**
 * A request's URL.pathname: Request.url is already parsed and serialised, so its path is the text from the
 * first "/" after the host to "?" or "#".
 */
export function pathOf(request: Request): string {
  const url = request.url;
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start < 0) return "/";
  return url.slice(start, endOfPath(url, start));
}

/**
 * `URL.searchParams.get(key)` of a request's URL. The query is parsed only when it may hold the key,
 * written out or percent-escaped: most requests name no agent_id, and the parse was 2% of a get.
 */
export function queryParam(request: Request, key: string): string | null {
  const url = request.url;
  const start = url.indexOf("/", url.indexOf("://") + 3);
  const end = start < 0 ? -1 : endOfPath(url, start);
  if (end < 0 || url.charCodeAt(end) !== QUESTION) return null;
  const query = url.slice(end, fragmentAt(url, end));
  // Spaces are written "+"; anything else a query escapes is written with "%".
  if (!query.includes("%") && !query.includes(key.replaceAll(" ", "+"))) return null;
  return new URLSearchParams(query).get(key);
}

const QUESTION = 63;
const fragmentAt = (url: string, from: number) => {
  const hash = url.indexOf("#", from);
  return hash < 0 ? url.length : hash;
};
/** Where the path starting at `start` ends: at its query's "?", its fragment's "#", or the URL's end. */
function endOfPath(url: string, start: number): number {
  const end = fragmentAt(url, start);
  const query = url.indexOf("?", start);
  return query >= 0 && query < end ? query : end;
}
