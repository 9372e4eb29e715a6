// The /swagger page: Swagger UI (npm swagger-ui-dist, pinned exactly in package.json) served from
// this process. Its files are imported as assets, so `bun build --compile` embeds them in the binary
// and the page needs no network; the Content-Security-Policy keeps the browser on this origin.
import bundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import css from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import license from "swagger-ui-dist/LICENSE" with { type: "file" };
import notice from "swagger-ui-dist/NOTICE" with { type: "file" };
import { notFound } from "~/shared/errors";

const ASSETS: Record<string, { path: string; type: string }> = {
  "swagger-ui-bundle.js": { path: bundle, type: "text/javascript; charset=utf-8" },
  "swagger-ui.css": { path: css, type: "text/css; charset=utf-8" },
  "init.js": { path: "", type: "text/javascript; charset=utf-8" },
  LICENSE: { path: license, type: "text/plain; charset=utf-8" },
  NOTICE: { path: notice, type: "text/plain; charset=utf-8" },
};

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const html = (base: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Engram API</title>
<link rel="stylesheet" href="${base}/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<p style="font: 12px sans-serif; margin: 2em"><a href="${base}/assets/LICENSE">Swagger UI</a> (Apache-2.0, <a href="${base}/assets/NOTICE">notice</a>)</p>
<script src="${base}/assets/swagger-ui-bundle.js"></script>
<script src="${base}/assets/init.js"></script>
</body>
</html>
`;

// validatorUrl: null — else Swagger UI sends the document to validator.swagger.io for a badge.
const init = (jsonUrl: string) => `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(jsonUrl)},
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
`;

/** The page at `base` rendering the document at `base`/json. */
export function docsPage(base: string) {
  const page = html(base);
  const script = init(`${base}/json`);
  return {
    html: () =>
      new Response(page, { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP } }),
    asset(name: string): Response {
      const a = ASSETS[name];
      if (!a) throw notFound("asset", name);
      const headers = { "content-type": a.type, "cache-control": "public, max-age=3600" };
      return new Response(name === "init.js" ? script : Bun.file(a.path), { headers });
    },
  };
}
