import type { ApolloServerPlugin } from '@apollo/server';
import type { Metrics } from './metrics.ts';

/**
 * Counts /graphql operations by name and type with their execution time, and every error of a response by its
 * `extensions.code` (read from the formatted errors, so masked errors count as INTERNAL_SERVER_ERROR). A response
 * Apollo sends with a 5xx status (an operation that could not execute at all) is counted once by the HTTP hook
 * (instrumentHttp), which sees every 5xx; Apollo's errors of the request itself (context creation) never reach here.
 */
export function metricsPlugin(metrics: Metrics): ApolloServerPlugin {
  return {
    async requestDidStart({ request }) {
      const started = performance.now();
      return {
        async willSendResponse({ operation, operationName, response }) {
          if (response.body.kind !== 'single') return;
          // A 5xx response is counted once by the HTTP hook.
          const errors = (response.http.status ?? 200) < 500 ? (response.body.singleResult.errors ?? []) : [];
          for (const error of errors) metrics.error('graphql', error.extensions?.code);
          // Requests that never resolved an operation (parse or validation errors) have only their errors counted.
          if (!operation) return;
          metrics.operation('graphql', operationName ?? request.operationName, operation.operation, (performance.now() - started) / 1000);
        },
      };
    },
  };
}
