// The GraphiQL page's script, for the browser. scripts/build-graphiql.mjs bundles it with GraphiQL,
// React and their CSS into dist/graphiql/, which the service serves itself at /graphiql: the page
// loads nothing from anywhere else (no CDN), so it works offline and under a self-only CSP.
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { parse } from 'graphql';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';
import './page.css';

// Queries and mutations over HTTP, subscriptions over graphql-ws, both on this origin. Headers
// typed in the headers editor go with every request, and into the graphql-ws connection params
// of a subscription (the referee reads the seat token from `Authorization` in either).
const endpoint = new URL('/graphql', window.location.href);
const toolkitFetcher = createGraphiQLFetcher({
  url: endpoint.href,
  subscriptionUrl: `${endpoint.protocol === 'https:' ? 'wss:' : 'ws:'}//${endpoint.host}${endpoint.pathname}`,
});
// The toolkit picks WebSocket for a subscription from the editor's parsed document, which lags
// the text by a debounce: parse the query actually sent, so a subscription never goes over HTTP.
const fetcher = (params, options) => {
  let documentAST = options?.documentAST;
  try {
    documentAST = parse(params.query);
  } catch {
    // Not parsable: the server says why.
  }
  return toolkitFetcher(params, { ...options, documentAST });
};

const defaultQuery = `# Arbiter's GraphQL API. To act for a seat, give its token
# in Headers below: { "Authorization": "Bearer <token>" }

{
  gameKinds
}
`;

// ?query=... opens the page with that query (a link to a query).
const query = new URLSearchParams(window.location.search).get('query') ?? undefined;

createRoot(document.getElementById('graphiql')).render(
  createElement(GraphiQL, {
    fetcher,
    defaultQuery,
    query,
    // Tokens are secrets: kept in the page only, not in the browser's storage.
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: 'headers',
  }),
);
