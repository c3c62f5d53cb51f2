// A real GraphQL server for the GraphQL-mode tests: graphql-yoga 5 + graphql 16 on 127.0.0.1
// (port 0). HTTP queries and mutations, GraphQL-over-SSE subscriptions (yoga's own), graphql-ws
// subscriptions over WebSocket, and the spec's `GET /graphql/subscriptions?query=` workaround.
import { createServer } from 'node:http';
import { GraphQLError } from 'graphql';
import { createPubSub, createSchema, createYoga } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { listenOnLoopback } from './http-utils.js';

const TOKEN = 'gql-secret-token-42';

const typeDefs = /* GraphQL */ `
  type Query {
    hello(name: String = "world"): String!
    user(id: ID!): User
    users(limit: Int, role: Role): [User!]!
    "Always fails: next to other fields it gives partial data."
    flaky: String
    "Non-null and always fails: the whole query fails (data null)."
    broken: String!
    "Needs Authorization: Bearer <TOKEN>."
    secret: String!
    "The Authorization header the server received (or null)."
    whoami: String
  }
  enum Role { ADMIN USER }
  type User {
    id: ID!
    name: String!
    email: String!
    role: Role!
    posts: [Post!]!
  }
  type Post {
    id: ID!
    title: String!
    tags: [String!]!
    "Fails for every post: errors with a path through lists (user.posts.0.rating)."
    rating: Int
  }
  type Mutation {
    addUser(name: String!, email: String!, role: Role = USER): User!
  }
  type Subscription {
    "Counts down from \`from\` to 0, one value every \`delayMs\` ms."
    countdown(from: Int!, delayMs: Int = 30): Int!
    "Emits 'first', then waits for release() before emitting 'last'."
    gated: String!
  }
`;

function initialUsers() {
  return [
    { id: '1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'ADMIN', posts: [{ id: 'p1', title: 'Notes on the Engine', tags: ['math', 'history'] }, { id: 'p2', title: 'Poetical Science', tags: [] }] },
    { id: '2', name: 'Alan Turing', email: 'alan@example.com', role: 'USER', posts: [{ id: 'p3', title: 'On Computable Numbers', tags: ['logic'] }] },
    { id: '3', name: 'Grace Hopper', email: 'grace@example.com', role: 'USER', posts: [] },
  ];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the server.
 * @returns {Promise<import('./graphql-server.js').GraphqlServer>}
 */
export async function startGraphqlServer() {
  const users = initialUsers();
  const pubsub = createPubSub();
  const received = [];
  let released = false;

  const resolvers = {
    Query: {
      hello: (_root, { name }) => `Hello, ${name}!`,
      user: (_root, { id }) => users.find((u) => u.id === id) ?? null,
      users: (_root, { limit, role }) => users.filter((u) => !role || u.role === role).slice(0, limit ?? undefined),
      flaky: () => {
        throw new GraphQLError('flaky is unavailable right now');
      },
      broken: () => {
        throw new GraphQLError('broken always fails');
      },
      secret: (_root, _args, context) => {
        if (context.authorization !== `Bearer ${TOKEN}`) {
          throw new GraphQLError('not authorised: send Authorization: Bearer <token>', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
        }
        return 'the eagle has landed';
      },
      whoami: (_root, _args, context) => context.authorization ?? null,
    },
    Post: {
      rating: () => {
        throw new GraphQLError('ratings are disabled');
      },
    },
    Mutation: {
      addUser: (_root, { name, email, role }) => {
        const user = { id: String(users.length + 1), name, email, role, posts: [] };
        users.push(user);
        return user;
      },
    },
    Subscription: {
      countdown: {
        subscribe: async function* (_root, { from, delayMs }) {
          for (let n = from; n >= 0; n--) {
            yield { countdown: n };
            if (n > 0) await sleep(delayMs);
          }
        },
      },
      gated: {
        subscribe: async function* () {
          released = false;
          yield { gated: 'first' };
          if (!released) await new Promise((resolve) => pubsub.subscribe('release')[Symbol.asyncIterator]().next().then(resolve));
          yield { gated: 'last' };
        },
      },
    },
  };

  const yoga = createYoga({
    schema: createSchema({ typeDefs, resolvers }),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    maskedErrors: false,
    context: ({ request, extra, connectionParams }) => ({
      authorization: request?.headers.get('authorization') ?? extra?.request?.headers.authorization ?? connectionParams?.authorization ?? undefined,
    }),
    plugins: [
      {
        onParams({ params, request }) {
          received.push({ transport: 'http', method: request.method, headers: Object.fromEntries(request.headers), params });
        },
      },
    ],
  });

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // The spec's workaround route: yoga already answers GET ?query= with SSE at its endpoint.
    if (url.pathname === '/graphql/subscriptions') req.url = `/graphql${url.search}`;
    if (url.pathname === '/not-graphql') {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      return res.end('<html><body>Bad Gateway</body></html>');
    }
    if (url.pathname === '/plain-200') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      return res.end('hello, not GraphQL');
    }
    // Other servers send errors with a path but no locations; yoga never does.
    if (url.pathname === '/graphql-no-locations') {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ data: { user: { posts: [{ title: null }] } }, errors: [{ message: 'title resolver timed out', path: ['user', 'posts', 0, 'title'] }] }));
    }
    return yoga(req, res);
  });

  const wsServer = new WebSocketServer({ server, path: '/graphql' });
  const wsCleanup = useServer(
    {
      execute: (args) => args.rootValue.execute(args),
      subscribe: (args) => args.rootValue.subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        received.push({ transport: 'ws', method: 'WS', headers: { ...ctx.extra.request.headers }, params, connectionParams: ctx.connectionParams });
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params });
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        return errors.length > 0 ? errors : args;
      },
    },
    wsServer,
  );

  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    token: TOKEN,
    received,
    isReleased: () => released,
    release: () => {
      released = true;
      pubsub.publish('release', true);
    },
    close: async () => {
      await wsCleanup.dispose();
      for (const client of wsServer.clients) client.terminate();
      await new Promise((resolve) => wsServer.close(() => resolve()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
