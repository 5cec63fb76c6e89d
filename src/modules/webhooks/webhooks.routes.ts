import { InvalidInput } from '../../platform/errors.ts';
import { jsonObject } from '../../platform/rest/input.ts';
import type { AnyRestRoute } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

/** A JSON value's kind, as a refusal names it. */
function describeJson(value: unknown): string {
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export const webhookRoutes: AnyRestRoute[] = [
  {
    method: 'POST',
    path: '/api/v1/partner/webhooks',
    family: 'v1',
    operation: 'RegisterWebhook',
    variables: ({ body }) => {
      const json = jsonObject(body);
      if (json.url === undefined || json.url === null) throw InvalidInput.field('url', 'is required');
      // GraphQL would coerce a lone string into a list; the contract says array.
      if (json.events === undefined || json.events === null) throw InvalidInput.field('events', 'is required: an array of event names');
      if (!Array.isArray(json.events)) throw InvalidInput.field('events', `must be an array of event names (got ${describeJson(json.events)})`);
      return { url: json.url, events: json.events };
    },
    respond: (data) => ({ status: 201, body: data.registerWebhook }),
  },
];
