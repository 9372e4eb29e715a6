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
