// The node flags `npm start` and the Dockerfile give the server. Benchmarks that start a server (or run one in their
// own process) start it with these, so what they measure is what runs; test/unit/server-flags.test.ts holds
// package.json's start script and the Dockerfile's CMD to this list.
//
// --max-semi-space-size=64: V8's young generation may grow to 64 MB per semi-space (Node 20's default is 16 MB). A
// REST read allocates ~200 KB that mostly dies young, but twenty requests in flight survive a scavenge every ~60 ms
// and each scavenge copies them. `npm run bench -- http` with the flag as a variant, side by side in the same runs:
// REST read +9% and +10%, `/graphql` +25% and +27%; the idle server +30 MB RSS (docs/decisions.md, "The request path").
//
// --no-allocation-site-pretenuring: V8 does not decide to allocate an allocation site's objects straight in the old
// generation. It decides so for a site whose objects survived scavenges at some moment (twenty requests in flight
// when one ran): from then on every row the database driver parses, every Date of a timestamp and every response
// string is born old, ~5 MB per scavenge, and dies there, so the old generation is marked again and again on V8's
// helper threads. Whether and when a server fell into this was chance: two servers of the same build, side by side,
// served 1,389–1,618 and 1,830–2,069 REST reads/s on PostgreSQL, the slower spending ~150 µs more per request on its
// other threads. With the flag, A/B in the same runs (docs/decisions.md, "The request path", thirteenth session).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64', '--no-allocation-site-pretenuring'];
