/*
 * graphql-ws publishes its ws binding under the subpath export
 * `graphql-ws/use/ws`, which TypeScript's "node" module resolution (this
 * project's) does not read; at run time Node resolves the export. This
 * points the compiler at the same declarations.
 */
declare module 'graphql-ws/use/ws' {
  export { useServer } from 'graphql-ws/dist/use/ws';
}
