import type { FastifyRequest } from 'fastify';

// What the server's log (pino, through Fastify) may say. Secrets ride in URLs: embed sign-in tokens, document-link
// signatures, OIDC codes and states, pre-signed source URLs and webhook URLs in their query strings, and setup tokens
// in the path of `/setup/{token}`. DESIGN §11: URLs are logged without query strings and without those path tokens.

/** A request path as the log shows it: no query string, and the one-time setup token replaced. */
export function logPath(url: string): string {
  const q = url.search(/[?#]/);
  const path = q === -1 ? url : url.slice(0, q);
  return path.replace(/^(\/setup\/)[^/]+/, '$1[redacted]');
}

/**
 * The last pass over every log line, for what a message or an error carries in free text (Fastify's own messages
 * name raw URLs, a fetch error names the URL it fetched, a library error may quote a header): URL query strings,
 * setup tokens, API keys, webhook secrets, the session cookie and Authorization values. The line is JSON, so a
 * match stops at a quote or a backslash (an escape).
 */
const LINE_RULES: Array<[RegExp, string]> = [
  [/(\/[^\s"'<>\\?#]*)\?[^\s"'<>\\#]+/g, '$1'],
  [/(\/setup\/)(?!\[redacted\])[^/?#\s"'\\<>;,)]+/g, '$1[redacted]'],
  [/\bpk_[A-Za-z0-9_-]{32}/g, 'pk_[redacted]'],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, 'whsec_[redacted]'],
  [/\b(pa_session|pa_setup)=[^;\s"'\\]+/g, '$1=[redacted]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]'],
];

/** One serialized log line with the secrets of LINE_RULES taken out. */
export function scrubLogLine(line: string): string {
  if (!/[?]|\/setup\/|pk_|whsec_|pa_s|Bearer|Basic/i.test(line)) return line;
  let out = line;
  for (const [pattern, replacement] of LINE_RULES) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Fastify's `logger` options: the level, the request serializer (method, path, peer), the credential-carrying
 * fields redacted wherever an object logs them, and the line scrub.
 */
export function httpLoggerOptions(level: string) {
  return {
    level,
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: logPath(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    redact: {
      // Headers wherever an object logs them (@fastify/multipart logs busboy's options, request headers included, at
      // trace); Node's HTTP parser errors (Fastify logs them at trace as "client error") carry the raw request bytes.
      paths: [
        ...['authorization', 'cookie', 'x-api-key', 'x-admin-token', 'set-cookie'].flatMap((h) => [`headers["${h}"]`, `*.headers["${h}"]`]),
        'err.rawPacket',
      ],
      censor: '[redacted]',
    },
    hooks: { streamWrite: scrubLogLine },
  };
}
