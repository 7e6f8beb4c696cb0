/** The customer display's handlers (shared/contract/display.ts): the feed the counter fills, the tablets' tokens. */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import type { DisplayFeed } from './feed.ts';
import type { DisplayTokens } from './tokens.ts';

export function displayHandlers(feed: DisplayFeed, tokens: DisplayTokens): AreaHandlers<'display'> {
  return areaHandlers('display', {
    'display.show': async (input) => {
      feed.show(input);
      return { shown: true };
    },
    'display.tokens': async () => ({ tokens: tokens.list() }),
    'display.tokenCreate': async ({ label, language }, caller) =>
      tokens.create(label, language, caller?.approver?.name ?? caller?.actor?.name ?? null),
    'display.tokenRevoke': async ({ id }) => tokens.revoke(id),
  });
}
