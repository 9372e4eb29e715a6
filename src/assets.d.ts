// Module declarations for files Bun imports as assets (text for SQL, paths for native files).
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.so" {
  const path: string;
  export default path;
}
declare module "*.node" {
  const path: string;
  export default path;
}
declare module "*.so.1" {
  const path: string;
  export default path;
}
// Swagger UI's files, served by http/docs-page.ts (paths; embedded in the binary).
declare module "swagger-ui-dist/*" {
  const path: string;
  export default path;
}
