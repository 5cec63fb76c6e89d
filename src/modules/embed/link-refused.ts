// Why a one-time link (an embed sign-in link or a tenant's setup link) was refused: shown on a page to a person.

export type LinkRefusal = 'unknown' | 'used' | 'expired' | 'elsewhere' | 'unopened';

const ASK_AGAIN = 'Ask whoever sent it to you for a new link.';
const REFUSALS: Record<'embed' | 'setup', Record<LinkRefusal, string>> = {
  embed: {
    unknown: 'This sign-in link is not valid.',
    used: 'This sign-in link has already been used. Links work once: ask for a new one from the application you came from.',
    expired: 'This sign-in link has expired (links are valid for 5 minutes). Ask for a new one from the application you came from.',
    elsewhere: 'This sign-in link is not valid.',
    unopened: 'This sign-in link is not valid.',
  },
  setup: {
    unknown: 'This setup link is not valid.',
    used: `This setup link has already been used: the account is set up. ${ASK_AGAIN}`,
    expired: `This setup link has expired: it works for 30 minutes after it is first opened, and for 7 days at most. ${ASK_AGAIN}`,
    elsewhere: `This setup link was opened in another browser (or this browser did not keep its cookie): it works only in the browser that opened it first. ${ASK_AGAIN}`,
    unopened: 'Open the setup link in your browser first, then send the form from that page.',
  },
};

/** `elsewhere` and `unopened` are a setup link's: one opened by another browser, and a form sent before its page. */
export class LinkRefused extends Error {
  constructor(
    readonly reason: LinkRefusal,
    link: 'embed' | 'setup' = 'embed',
  ) {
    super(REFUSALS[link][reason]);
  }

  /** The page's status: 404 for a link that never existed, 400 for a form sent before its page was opened, else 410. */
  get status(): 404 | 400 | 410 {
    return this.reason === 'unknown' ? 404 : this.reason === 'unopened' ? 400 : 410;
  }
}
