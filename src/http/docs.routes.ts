// The API's own description: /swagger/json (the OpenAPI document of every route) and /swagger (the
// page that renders it, served with its assets from the process itself: no CDN, works offline).
// Public: they hold no data. Hidden from the document they serve.
import { router } from "./router";
import { openApiDocument, type RouteEntry } from "./openapi";
import { docsPage } from "./docs-page";
import { hidden } from "./access";
import { ACCESS } from "~/identity/access";

export const DOCS_PATH = "/swagger";

/** `routes` is read at the first request, when every route of the app is registered. */
export const docsRoutes = (routes: () => readonly RouteEntry[], version: string) => {
  let json: string | undefined;
  const page = docsPage(DOCS_PATH);
  const hide = hidden(ACCESS.public);
  return router()
    .get(
      `${DOCS_PATH}/json`,
      () =>
        new Response((json ??= JSON.stringify(openApiDocument(routes(), version).document)), {
          headers: { "content-type": "application/json" },
        }),
      hide,
    )
    .get(DOCS_PATH, () => page.html(), hide)
    .get(`${DOCS_PATH}/assets/:file`, ({ params }) => page.asset(params.file), hide);
};

export const isDocsPath = (path: string) => path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`);
