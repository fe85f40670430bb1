/*
 * The GraphQL IDE of the service (GraphiQL), served from the service itself
 * so the page keeps the Content-Security-Policy of every answer: React,
 * ReactDOM and GraphiQL are the UMD builds copied from their npm packages
 * at build time, loaded from 'self' before this script; queries go to
 * /graphql of the same origin (connect-src 'self').
 */

interface ReactGlobal {
  createElement(type: unknown, props: Record<string, unknown>): unknown;
}
interface ReactDomGlobal {
  createRoot(element: Element): { render(node: unknown): void };
}
interface GraphiqlGlobal {
  createFetcher(options: { url: string; headers?: Record<string, string> }): unknown;
}

const globals = window as unknown as { React: ReactGlobal; ReactDOM: ReactDomGlobal; GraphiQL: GraphiqlGlobal };

/** The document the editor opens with: the legal plays of the backgammon opening roll 3-1. */
const FIRST_QUERY = `# The legal plays of 3-1 in the backgammon opening, as POST /v1/moves.
query OpeningPlays($input: MovesInput!) {
  moves(input: $input) {
    count
    turns {
      notation
      positionId
    }
  }
}
`;

const FIRST_VARIABLES = JSON.stringify({ input: { variant: 'backgammon', positionId: '4HPwATDgc/ABMA', dice: [3, 1] } }, null, 2);

const root = document.getElementById('graphiql');
if (root) {
  const { React, ReactDOM, GraphiQL } = globals;
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: GraphiQL.createFetcher({ url: new URL('/graphql', window.location.href).href }),
      // The first visit's document and variables; GraphiQL keeps later edits in the browser's storage.
      defaultQuery: FIRST_QUERY,
      variables: window.localStorage.getItem('graphiql:variables') === null ? FIRST_VARIABLES : undefined,
      defaultEditorToolsVisibility: true,
    }),
  );
}
