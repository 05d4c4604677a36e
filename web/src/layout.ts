import { liveState, playerKey } from './api.js';
import { html, type Markup } from './html.js';

/** How a view stops its live updates when the reader goes elsewhere. */
export type Stop = () => void;

/** The frame every view shares. */
export function layout(content: Markup): Markup {
  return html`<header class="top"><a class="brand" href="/">Arbiter</a>
    <nav aria-label="Sections"><a href="/">Games</a> <a href="/tournaments">Tournaments</a> <a href="/me">${playerKey() ? 'My games' : 'Sign in'}</a> <a href="/play">Play</a> <a href="/graphiql">GraphiQL</a></nav>
    <span class="connection" data-connection="${liveState().state}" aria-live="polite">${liveState().text}</span></header>
    <main>${content}</main>`;
}
