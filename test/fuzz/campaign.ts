import fc from 'fast-check';
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from '../../src/main.ts';
import type { FuzzCase, FuzzContext } from './cases.ts';
import { graphqlDocumentCaseArb } from './graphql-documents.ts';
import { graphqlFieldCaseArb, rootFields } from './graphql-requests.ts';
import { withHeaderNoise } from './headers.ts';
import { atLimit, graphqlLimits } from './limits.ts';
import { loadRestOperations, restCaseArb, routeName } from './rest-requests.ts';
import { type Outcome, send } from './send.ts';
import type { FuzzTarget } from './target.ts';
import { slotFromGraphQL } from './slots.ts';
import { webCaseArb } from './web-requests.ts';
import { wsProtocolCaseArb } from './ws-protocol.ts';

// One fuzzing campaign against a running target: `requests` cases drawn with fast-check from a fixed seed, sent one
// after another, each judged (send.ts), tallied by status and by route; /healthz checked along the way and at the
// end. The first failure stops the campaign and is shrunk by fast-check to the smallest request that still fails —
// or, with keepGoing, every failure is recorded (the first of each route and problem, with how often it came and the
// path that replays it) and the campaign goes on to the end (a dead process still ends it).

/** The default seed of `npm run fuzz` and the CI run (issue 13). */
export const DEFAULT_SEED = 1313;

export interface CampaignOptions {
  seed: number;
  requests: number;
  /** Progress lines (every `progressEvery` requests). */
  progress?: (line: string) => void;
  progressEvery?: number;
  /** /healthz must answer 200 within HEALTH_TIMEOUT_MS every this many requests. */
  healthEvery?: number;
  /** fast-check's path of a reported failure: replays just that counterexample. */
  path?: string;
  /** Record failures and go on (no shrinking): to see every kind of failure in one long run. */
  keepGoing?: boolean;
}

export interface Failure {
  problem: string;
  case: FuzzCase;
  outcome: Outcome;
  /** fast-check's own report (seed, path to replay, the counterexample as generated). */
  report: string;
}

/** A failure recorded by a keepGoing campaign: its first case, unshrunk, and how to replay it. */
export interface RecordedFailure extends Omit<Failure, 'report'> {
  /** fast-check's path of the first case that failed so (`npm run fuzz -- --seed S --path P` replays it). */
  path: string;
  /** How many requests failed with this problem on this route. */
  count: number;
}

export interface CampaignResult {
  seed: number;
  /** Requests tallied (shrinking runs not included). */
  sent: number;
  elapsedMs: number;
  byStatus: Map<string, number>;
  byRoute: Map<string, Map<string, number>>;
  /** Answers carrying an internal error (a masked error's correlation id, whatever the status; a 4500 or 1011 close). */
  internalErrors: number;
  /** REST operations and GraphQL root fields that received no request. */
  missing: string[];
  /** Requests that gave each GraphQL argument a value (`Type.field(argument)`, root fields and the fields below). */
  byArgument: Map<string, number>;
  /** Arguments of root fields that were never given a value. */
  missingArguments: string[];
  /** Arguments of root fields with a size (numbers, text, lists, JSON) never sent at or next to one of their limits. */
  missingLimits: string[];
  failure?: Failure;
  /** With keepGoing: the first failure of each route and problem (not shrunk). */
  failures: RecordedFailure[];
  alive: boolean;
  healthz: string;
}

const HEALTH_TIMEOUT_MS = 5_000;

/** Every case the fuzzer draws from, the routes and arguments that must each get some, the arguments with limits. */
export function fuzzCases(
  ctx: FuzzContext,
  schema: GraphQLSchema = buildSchema(),
): { arbitrary: fc.Arbitrary<FuzzCase>; routes: string[]; args: string[]; limitArgs: string[] } {
  const ops = loadRestOperations();
  const fields = rootFields(schema);
  const arbitrary = fc.oneof(
    { weight: 45, arbitrary: fc.oneof(...ops.map((op) => restCaseArb(op, ctx))) },
    { weight: 38, arbitrary: fc.oneof(...fields.map((f) => graphqlFieldCaseArb(f.kind, f.typeName, f.field, ctx))) },
    { weight: 12, arbitrary: graphqlDocumentCaseArb(ctx) },
    { weight: 5, arbitrary: wsProtocolCaseArb(ctx) },
    { weight: 4, arbitrary: webCaseArb(ctx) },
  );
  const hasLimits = (f: (typeof fields)[number], a: (typeof f.field.args)[number]) =>
    atLimit(slotFromGraphQL(a.type, a.name, graphqlLimits(a, f.field))) !== undefined;
  return {
    // Any request may carry odd cookies and headers besides its own (headers.ts).
    arbitrary: withHeaderNoise(arbitrary, ctx),
    routes: [...ops.map(routeName), ...fields.map((f) => `graphql ${f.typeName}.${f.field.name}`)],
    args: fields.flatMap((f) => f.field.args.map((a) => `${f.typeName}.${f.field.name}(${a.name})`)),
    limitArgs: fields.flatMap((f) => f.field.args.filter((a) => hasLimits(f, a)).map((a) => `${f.typeName}.${f.field.name}(${a.name})@limit`)),
  };
}

export async function healthz(base: string): Promise<string> {
  try {
    const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    return `${res.status} ${await res.text()}`;
  } catch (err) {
    return `no answer within ${HEALTH_TIMEOUT_MS} ms (${(err as Error).message})`;
  }
}

export async function runCampaign(target: FuzzTarget, options: CampaignOptions): Promise<CampaignResult> {
  const ctx: FuzzContext = { ids: target.ids, keys: target.keys };
  const { arbitrary, routes, args, limitArgs } = fuzzCases(ctx);
  const byArgument = new Map<string, number>();
  const byStatus = new Map<string, number>();
  const byRoute = new Map<string, Map<string, number>>();
  const started = Date.now();
  let sent = 0;
  let internalErrors = 0;
  let failing: Omit<Failure, 'report'> | undefined;
  let processGone = false;
  const failures = new Map<string, RecordedFailure>();
  // The index of the case being run: without shrinking (keepGoing), fast-check's path of the n-th case is "n".
  let run = -1;

  const tally = (route: string, label: string) => {
    byStatus.set(label, (byStatus.get(label) ?? 0) + 1);
    const counts = byRoute.get(route) ?? new Map<string, number>();
    counts.set(label, (counts.get(label) ?? 0) + 1);
    byRoute.set(route, counts);
  };

  const property = fc.asyncProperty(arbitrary, async (c) => {
    // Once the process is gone every request fails: shrinking could only blame innocent ones.
    if (processGone) return;
    if (!failing) run++;
    const outcome = await send(target.base, c, target.documents);
    if (!failing) {
      sent++;
      tally(c.route, outcome.label);
      if (outcome.correlationIds.length > 0 || /^ws closed (4500|1011)$/.test(outcome.label)) internalErrors++;
      for (const arg of c.args ?? []) byArgument.set(arg, (byArgument.get(arg) ?? 0) + 1);
      if (options.progress && sent % (options.progressEvery ?? 1000) === 0) {
        options.progress(`${sent}/${options.requests} requests, ${Math.round((Date.now() - started) / 1000)} s`);
      }
    }
    let problem = outcome.problem;
    const exit = target.exitCode();
    if (exit !== null && exit !== undefined) {
      processGone = true;
      problem = `the server process exited (code ${exit}) while answering this request${problem ? ` (${problem})` : ''}`;
    } else if (!problem && !failing && sent % (options.healthEvery ?? 250) === 0) {
      const health = await healthz(target.base);
      if (!health.startsWith('200')) problem = `/healthz: ${health}`;
    }
    if (problem && options.keepGoing && !processGone) {
      const key = `${c.route}: ${problem}`;
      const known = failures.get(key);
      if (known) known.count++;
      else failures.set(key, { problem, case: c, outcome, path: String(run), count: 1 });
    } else if (problem) {
      failing = { problem, case: c, outcome };
      throw new Error(problem);
    }
  });

  let failure: Failure | undefined;
  try {
    await fc.assert(property, { seed: options.seed, numRuns: options.requests, verbose: 0, ...(options.path ? { path: options.path } : {}) });
  } catch (err) {
    if (!failing) throw err;
    failure = { ...failing, report: (err as Error).message };
  }
  const health = await healthz(target.base);
  const exit = target.exitCode();
  return {
    seed: options.seed,
    sent,
    elapsedMs: Date.now() - started,
    byStatus,
    byRoute,
    internalErrors,
    missing: routes.filter((r) => !byRoute.has(r)),
    byArgument,
    missingArguments: args.filter((a) => !byArgument.has(a)),
    missingLimits: limitArgs.filter((a) => !byArgument.has(a)),
    ...(failure ? { failure } : {}),
    failures: [...failures.values()],
    alive: exit === null || exit === undefined,
    healthz: health,
  };
}
