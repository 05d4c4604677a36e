/** GraphQL documents shared by the end-to-end tests. */
export const CREATE = `mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    __typename
    ... on GameCreated { game { id status version } tokens { seat token } }
    ... on Rejection { code message }
  }
}`;

export const GAME = `query($id: ID!) {
  game(id: $id) {
    id kind status version mySeat toAct view legalActions result
    seats { index name taken }
    fairness { seedCommitment randomSource serverSeed clientSeeds }
  }
}`;

export const ACT = `mutation($gameId: ID!, $moveId: String!, $action: JSON!, $expectedVersion: Int) {
  submitAction(gameId: $gameId, moveId: $moveId, action: $action, expectedVersion: $expectedVersion) {
    __typename
    ... on MoveAccepted { version status result events { seq type actor payload hash } }
    ... on Rejection { code message currentVersion }
  }
}`;

/** A page of a game's log (the first 1000 events, or those after the cursor `after`, an event's seq); read `gameEvents.nodes`. */
export const EVENTS = `query($gameId: ID!, $after: String) {
  gameEvents(gameId: $gameId, after: $after) { nodes { seq type actor moveId payload createdAt prevHash hash } }
}`;

export const VERIFY = `query($gameId: ID!) {
  verifyGame(gameId: $gameId) { ok eventsChecked drawsRecomputed badSeq problem fairnessChecked summary }
}`;
