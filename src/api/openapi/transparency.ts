/** The `log` routes: the transparency log's checkpoints, key and proofs (docs/transparency.md), public. */
import { commonRefusals, json, type Parameter, type Paths, ref, type Schema } from './builders.js';

const note = (description: string) => ({ 'text/plain': { schema: { type: 'string', description } as Schema } });
const size = (name: string, description: string, required = true): Parameter => ({ name, in: 'query', required, description, schema: { type: 'integer', minimum: 0 } });
const refused = (what: string) => ({ '4XX': { description: what, content: json(ref('schemas', 'Error')) }, ...commonRefusals });
const base64Hashes: Schema = { type: 'array', items: { type: 'string', description: 'A SHA-256 hash, base64' } };

export const logPaths: Paths = {
  '/api/log/checkpoint': {
    get: {
      operationId: 'getLogCheckpoint',
      summary: "The log's latest signed checkpoint (C2SP tlog-checkpoint in a signed note): origin, tree size, root hash, signature",
      tags: ['log'],
      security: [],
      responses: {
        '200': { description: 'The signed note', content: note('origin\\nsize\\nbase64 root\\n\\n— key-name base64(key id || signature)\\n') },
        ...refused('`NOT_FOUND` (404) before the first checkpoint'),
      },
    },
  },
  '/api/log/checkpoints/{size}': {
    get: {
      operationId: 'getLogCheckpointOfSize',
      summary: 'The checkpoint the log signed at this tree size (a monitor keeps one, and shows it as evidence)',
      tags: ['log'],
      parameters: [{ name: 'size', in: 'path', required: true, description: 'A tree size', schema: { type: 'integer', minimum: 0 } }],
      security: [],
      responses: { '200': { description: 'The signed note', content: note('A signed checkpoint') }, ...refused('`NOT_FOUND` (404): no checkpoint of this size; `INVALID_INPUT` (400)') },
    },
  },
  '/api/log/key': {
    get: {
      operationId: 'getLogKey',
      summary: "The log's public key, as a verifier key: name+key id (hex)+base64(0x01 || Ed25519 key)",
      tags: ['log'],
      security: [],
      responses: { '200': { description: 'The verifier key, one line', content: note('arbiter.example.com/log+1a2b3c4d+AUi…') }, ...commonRefusals },
    },
  },
  '/api/log/inclusion': {
    get: {
      operationId: 'getLogInclusionProof',
      summary: "A finished game's or tournament's entry (or the entry at a leaf index) and its RFC 9162 inclusion proof against a tree size",
      tags: ['log'],
      parameters: [
        { name: 'game', in: 'query', description: 'A game id (name one of game, tournament, index)', schema: { type: 'string' } },
        { name: 'tournament', in: 'query', description: 'A tournament id', schema: { type: 'string' } },
        size('index', 'A leaf index', false),
        size('size', "The tree size to prove against (default: the latest checkpoint's)", false),
      ],
      security: [],
      responses: {
        '200': {
          description: 'The entry (its RFC 8785 JSON bytes are the leaf), where it is, the audit path and the checkpoint signed at that size (null if none was)',
          content: json({
            type: 'object',
            required: ['entry', 'leafIndex', 'treeSize', 'inclusionProof', 'checkpoint'],
            properties: {
              entry: {
                type: 'object',
                required: ['format', 'kind', 'id', 'seq', 'hash', 'result'],
                properties: {
                  format: { type: 'string', const: 'arbiter-log-entry/1' },
                  kind: { type: 'string', enum: ['game', 'tournament'] },
                  id: { type: 'string' },
                  seq: { type: 'integer', description: "The stream's last event" },
                  hash: { type: 'string', description: "That event's hash: the stream's final head" },
                  result: { type: ['object', 'null'], additionalProperties: true, description: "The game's result (null if aborted), or the tournament's { ranking }" },
                },
              },
              leafIndex: { type: 'integer', minimum: 0 },
              treeSize: { type: 'integer', minimum: 1 },
              inclusionProof: base64Hashes,
              checkpoint: { type: ['string', 'null'] },
            },
          }),
        },
        ...refused('`NOT_FOUND` (404): no entry (the game or tournament is not finished, or does not exist); `NOT_IN_LOG_YET` (409): not in a checkpoint yet; `INVALID_INPUT` (400)'),
      },
    },
  },
  '/api/log/consistency': {
    get: {
      operationId: 'getLogConsistencyProof',
      summary: 'An RFC 9162 consistency proof: the tree of size `from` is a prefix of the tree of size `to`',
      tags: ['log'],
      parameters: [size('from', 'The smaller tree size'), size('to', 'The larger tree size')],
      security: [],
      responses: {
        '200': {
          description: 'The proof',
          content: json({ type: 'object', required: ['from', 'to', 'consistencyProof'], properties: { from: { type: 'integer' }, to: { type: 'integer' }, consistencyProof: base64Hashes } }),
        },
        ...refused('`INVALID_INPUT` (400): a size larger than the tree, or from > to'),
      },
    },
  },
};
