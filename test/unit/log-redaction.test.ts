import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { httpLoggerOptions, logPath, scrubLogLine } from '../../src/platform/http/logging.ts';

const KEY = 'pk_AbCdEfGhIjKlMnOpQrStUvWxYz012345';

describe('logPath', () => {
  test.each([
    ['/embed/session?token=abc', '/embed/session'],
    ['/documents/0b6e?tenant=t&holder=k:1&expires=9&signature=s1g', '/documents/0b6e'],
    ['/sso/1/oidc/callback?code=c0de&state=st4te&iss=x', '/sso/1/oidc/callback'],
    ['/setup/q7Xw2bKpL0mZ4rT9vN3s', '/setup/[redacted]'],
    ['/setup/q7Xw2bKpL0mZ4rT9vN3s/extra?x=1', '/setup/[redacted]/extra'],
    ['/api/v1/partner/vendors', '/api/v1/partner/vendors'],
    ['/graphql#frag', '/graphql'],
  ])('%s → %s', (url, logged) => expect(logPath(url)).toBe(logged));
});

describe('scrubLogLine', () => {
  test('URL queries, setup tokens, keys, webhook secrets, cookies and Authorization values go; the rest stays', () => {
    const line = JSON.stringify({
      msg: `Route GET:/nowhere?token=t0k not found; fetch https://bucket.example/a.pdf?X-Amz-Signature=abc failed`,
      err: {
        message: `webhook https://hooks.example?secret=s3 refused; POST /setup/q7Xw2bKpL0mZ4rT9vN3s; key ${KEY}`,
        stack: 'Error\n    at x (file:///app/a.js:1:2)',
      },
      note: 'Cookie: pa_session=s3ss10n; pa_setup=b1nd; whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw and Authorization: Bearer abcdefgh12345678',
      plain: 'is this right? /api/v1/partner/vendors',
    });
    const scrubbed = scrubLogLine(line);
    for (const secret of ['t0k', 'X-Amz-Signature', 'abc"', 's3 ', 'q7Xw2b', KEY, 's3ss10n', 'b1nd', 'MfKQ9r8G', 'abcdefgh12345678']) {
      expect(scrubbed).not.toContain(secret);
    }
    expect(JSON.parse(scrubbed)).toEqual({
      msg: 'Route GET:/nowhere not found; fetch https://bucket.example/a.pdf failed',
      err: { message: 'webhook https://hooks.example refused; POST /setup/[redacted]; key pk_[redacted]', stack: 'Error\n    at x (file:///app/a.js:1:2)' },
      note: 'Cookie: pa_session=[redacted]; pa_setup=[redacted]; whsec_[redacted] and Authorization: Bearer [redacted]',
      plain: 'is this right? /api/v1/partner/vendors',
    });
  });

  test('a line with nothing to scrub is returned as it is', () => {
    const line = '{"level":30,"reqId":"r1","res":{"statusCode":200},"responseTime":1.2,"msg":"request completed"}\n';
    expect(scrubLogLine(line)).toBe(line);
  });
});

describe('the server logger', () => {
  test('request lines name the path only; credential headers are redacted wherever an object carries them', async () => {
    const lines: string[] = [];
    const out = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const app = Fastify({ logger: { ...httpLoggerOptions('trace'), stream: out } });
    app.get('/setup/:token', async (request) => {
      request.log.info({ busboyOptions: { headers: request.headers } }, 'options');
      return 'ok';
    });
    const res = await app.inject({
      url: '/setup/q7Xw2bKpL0mZ4rT9vN3s?code=c0de',
      headers: { 'x-api-key': KEY, cookie: 'pa_session=s3ss10n', authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(res.statusCode).toBe(200);
    await app.close();
    const log = lines.join('');
    expect(log).toContain('"url":"/setup/[redacted]"');
    expect(log).toContain('"x-api-key":"[redacted]","cookie":"[redacted]","authorization":"[redacted]"');
    for (const secret of ['q7Xw2b', 'c0de', KEY, 's3ss10n', 'dXNlcjpwYXNz']) expect(log).not.toContain(secret);
  });
});
