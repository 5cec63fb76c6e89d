import { InvalidInput } from '../../platform/errors.ts';
import { jsonObject } from '../../platform/rest/input.ts';
import type { AnyRestRoute } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

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
      if (!Array.isArray(json.events)) throw InvalidInput.field('events', 'is required: an array of event names');
      return { url: json.url, events: json.events };
    },
    respond: (data) => ({ status: 201, body: data.registerWebhook }),
  },
];
