// The node flags `npm start` and the Dockerfile give the server. Benchmarks that start a server (or run one in their
// own process) start it with these, so what they measure is what runs; test/unit/server-flags.test.ts holds
// package.json's start script and the Dockerfile's CMD to this list.
//
// --max-semi-space-size=64: V8's young generation may grow to 64 MB per semi-space (Node 20's default is 16 MB). A
// REST read allocates ~200 KB that mostly dies young, but twenty requests in flight survive a scavenge every ~60 ms
// and each scavenge copies them. `npm run bench -- http` with the flag as a variant, side by side in the same runs:
// REST read +9% and +10%, `/graphql` +25% and +27%; the idle server +30 MB RSS (docs/decisions.md, "The request path").
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
