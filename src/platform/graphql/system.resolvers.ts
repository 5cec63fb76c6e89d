import { InvalidInput } from '../errors.ts';
import { ticker } from '../events/ticker.ts';

export const systemResolvers = {
  Subscription: {
    serverTime: {
      subscribe: (_: unknown, args: { everyMs?: number | null }) => {
        const everyMs = args.everyMs ?? 1000;
        if (!Number.isInteger(everyMs) || everyMs < 250 || everyMs > 60_000) {
          throw InvalidInput.field('everyMs', 'must be an integer from 250 to 60000');
        }
        return ticker(everyMs, () => ({ serverTime: new Date() }));
      },
    },
  },
};
