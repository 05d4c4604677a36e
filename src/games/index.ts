/** One Nest module per game; each registers its engine and adds its typed GraphQL API. */
export const GAME_MODULES = [];
