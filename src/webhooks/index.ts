/** The webhooks' public entry: the Nest module the application imports (everything else is theirs alone). */
export { WebhooksModule } from './webhooks.module.js';
