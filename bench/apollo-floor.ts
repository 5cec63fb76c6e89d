// `npm run bench -- apollo`: what Apollo Server itself costs per request on this machine, the floor under `/graphql`'s
// ratio to REST (issue 17 asks for /graphql ≥ 0.9× REST). One process, one Fastify, two routes answering the same
// one-field operation: (a) a plain POST route that reads the JSON body and answers the result; (b) Apollo Server
// through @as-integrations/fastify with the options /graphql uses (compact JSON, landing page, inline traces and cache
// control off), a one-field schema resolved by graphql-js. autocannon, 20 connections, BENCH_ROUNDS (3) interleaved
// rounds of BENCH_SECONDS (5). Prints µs per request for each and Apollo's difference.
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import autocannon from 'autocannon';
import Fastify from 'fastify';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const app = Fastify();
const apollo = new ApolloServer({
  typeDefs: 'type Query { hello(name: String): String }',
  resolvers: { Query: { hello: (_: unknown, args: { name?: string }) => `hi ${args.name}` } },
  stringifyResult: (result) => JSON.stringify(result),
  plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginCacheControlDisabled()],
});
await apollo.start();
app.route({ url: '/graphql', method: ['GET', 'POST', 'OPTIONS'], handler: fastifyApolloHandler(apollo) });
app.post('/plain', async (request) => ({ data: { hello: `hi ${(request.body as { variables: { name: string } }).variables.name}` } }));
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
const body = JSON.stringify({ query: 'query Hello($name: String) { hello(name: $name) }', variables: { name: 'x' } });

const samples: Record<string, number[]> = { plain: [], apollo: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, path] of [
    ['plain', '/plain'],
    ['apollo', '/graphql'],
  ] as const) {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}${path}`,
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      connections: 20,
      duration: SECONDS,
    });
    if (result.non2xx || result.errors) throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    samples[name]!.push(result.requests.average);
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const us = (rps: number) => 1e6 / rps;
const plain = mean(samples.plain!);
const withApollo = mean(samples.apollo!);
console.log(
  `plain Fastify POST   ${plain.toFixed(0).padStart(6)} req/s  ${us(plain).toFixed(0)} µs/request  rounds [${samples.plain!.map((x) => x.toFixed(0)).join(', ')}]`,
);
console.log(
  `Apollo Server        ${withApollo.toFixed(0).padStart(6)} req/s  ${us(withApollo).toFixed(0)} µs/request  rounds [${samples.apollo!.map((x) => x.toFixed(0)).join(', ')}]`,
);
const extra = us(withApollo) - us(plain);
console.log(
  `Apollo's own cost: ${extra.toFixed(0)} µs per request; /graphql can reach 0.9× a REST route only if that route costs ≥ ${(9 * extra).toFixed(0)} µs (≤ ${(1e6 / (9 * extra)).toFixed(0)} req/s)`,
);
await app.close();
await apollo.stop();
